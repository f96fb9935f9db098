"""Decode: tag sequences and spans into entity columns, and back.

The vectorised decoder over scheme tables (:mod:`~nerscore.decode.decoder`),
tags to entities and entities to tags (:mod:`~nerscore.decode.entities`),
character and token offsets (:mod:`~nerscore.decode.offsets`), validation
and repair (:mod:`~nerscore.decode.validation`), the reference tools' own
chunk rules (:mod:`~nerscore.decode.conlleval_rules`,
:mod:`~nerscore.decode.seqeval_rules`) and the normalisation of whatever a
user passes into entity columns (:mod:`~nerscore.decode.inputs`).
"""
