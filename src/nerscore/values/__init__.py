"""Values: the data every stage passes around.

Spans and entities (:mod:`~nerscore.values.spans`), tag schemes as tables
(:mod:`~nerscore.values.schemes`), encoded tag sequences
(:mod:`~nerscore.values.tags`), span documents
(:mod:`~nerscore.values.documents`), the decoding options
(:mod:`~nerscore.values.decoding`), mergeable counts
(:mod:`~nerscore.values.counts`) and the option enums
(:mod:`~nerscore.values.options`).
"""
