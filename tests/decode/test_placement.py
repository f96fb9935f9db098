"""Placing many documents' mentions at once (nerscore.decode.placement) == one document at a time.

The batch path (``place_mentions``, and ``evaluate_llm`` / ``align_outputs``
reading JSON lists in bulk) is checked against the per-document path
(``parse_llm_output`` then ``align_mentions``, which place every string by
the greedy rule) on seeded random documents: repeated strings, strings inside
others ("Paris" / "Paris Hilton"), self-overlapping strings ("aa" in "aaa"),
unaligned and empty mentions, duplicates, case and Unicode variants, parse
failures, other output formats and mentions with offsets.
"""

from __future__ import annotations

import json
import random

import pytest

import nerscore
from nerscore import Document, Mention, align_mentions, parse_llm_output
from nerscore.decode import placement
from nerscore.decode.mentions import align_items
from nerscore.decode.placement import place_mentions
from nerscore.scoring.llm import align_outputs, evaluate_llm

POLICIES = ("sequential", "first", "all")
NORMALIZATIONS = ("exact", "casefold", "loose")
WORDS = ("Paris", "Paris Hilton", "Hilton", "France", "aa", "aaa", "a", "Straße", "STRASSE",
         "ﬁle", "file", "New  York", "New York", "“Lyon”", "Lyon", "is", "in", "Anna", "PARIS")
FILLER = ("the", "of", "and", ",", ".", "visited", "x")
LABELS = ("LOC", "PER", "ORG", "loc", "Place")


def _corpus(seed: int, n_docs: int) -> tuple[list[Document], list[list[tuple[str, str]]]]:
    rng = random.Random(seed)
    docs, answers = [], []
    for d in range(n_docs):
        words = [rng.choice(WORDS if rng.random() < 0.5 else FILLER)
                 for _ in range(rng.randint(0, 14))]
        text = " ".join(words)
        pool = [w for w in words if w in WORDS] or ["Paris"]
        answer = []
        for _ in range(rng.randint(0, 8)):
            r = rng.random()
            if r < 0.7:
                t = rng.choice(pool)
            elif r < 0.8:
                t = rng.choice(WORDS)
            elif r < 0.9:
                t = f"Ghost{rng.randrange(5)}"
            elif r < 0.95:
                t = rng.choice(pool).upper()
            else:
                t = ""
            answer.append((t, rng.choice(LABELS)))
            if rng.random() < 0.15:  # a duplicate mention
                answer.append(answer[-1])
        docs.append(Document(f"d{d}", (), text))
        answers.append(answer)
    return docs, answers


def _output(rng: random.Random, answer: list[tuple[str, str]], text: str) -> object:
    """The answer in a random form: mostly a plain JSON list, sometimes something else."""
    r = rng.random()
    plain = json.dumps([{"text": t, "label": lab} for t, lab in answer])
    if r < 0.6 or not answer:
        return plain
    if r < 0.65:
        return plain[: rng.randrange(1, len(plain))]  # cut short: repaired or a failure
    if r < 0.7:
        return "Sure!\n```json\n" + plain + "\n```"
    if r < 0.75:
        return "\n".join(f"{lab}: {t}" for t, lab in answer if t and "," not in t)
    if r < 0.8:  # an object that is not plain: extra keys, one with offsets
        objs = [{"text": t, "label": lab, "score": 0.5} for t, lab in answer]
        at = text.find(answer[0][0])
        if at >= 0 and rng.random() < 0.5:
            objs[0].update(start=at, end=at + len(answer[0][0]))
        return json.dumps(objs)
    if r < 0.85:
        return [Mention(t, lab) for t, lab in answer]
    if r < 0.9:
        return "I cannot help with that."
    return [{"text": t, "label": lab} for t, lab in answer]


@pytest.mark.parametrize("normalize", NORMALIZATIONS)
@pytest.mark.parametrize("policy", POLICIES)
def test_place_mentions_equals_the_rule_document_by_document(policy, normalize):
    docs, answers = _corpus(7, 250)
    sources = [d.text or "" for d in docs]
    doc = [k for k, a in enumerate(answers) for _ in a]
    texts = [t for a in answers for t, _ in a]
    labels = [lab for a in answers for _, lab in a]
    p = place_mentions(sources, doc, texts, labels, policy=policy, normalize=normalize)
    got = [[] for _ in docs]
    for k, s, e, m in zip(p.doc.tolist(), p.start.tolist(), p.end.tolist(), p.mention.tolist(),
                          strict=True):
        got[k].append((s, e, labels[m]))
    lost = [[] for _ in docs]
    first = [0] * len(docs)
    for k in range(len(doc) - 1, -1, -1):
        first[doc[k]] = k
    for m in p.unaligned.tolist():
        lost[doc[m]].append(m - first[doc[m]])
    ambiguous = 0
    for k, (src, answer) in enumerate(zip(sources, answers, strict=True)):
        ref = align_items(src, [(t, lab, None, None) for t, lab in answer], policy=policy,
                          normalize=normalize)
        assert got[k] == ref.spans, (src, answer)
        assert lost[k] == ref.unaligned, (src, answer)
        ambiguous += ref.ambiguous
    assert p.ambiguous == ambiguous


@pytest.mark.parametrize("policy", POLICIES)
def test_the_corpus_reaches_both_paths(policy, monkeypatch):
    """Enough documents take the batch placement and enough the rule, for the test to bite.

    Documents with a string mentioned twice take the batch placement too (but under "all"),
    unless its occurrences meet others'.
    """
    docs, answers = _corpus(7, 250)
    doc = [k for k, a in enumerate(answers) for _ in a]
    texts = [t for a in answers for t, _ in a]
    by_rule = []
    rule = placement._place
    monkeypatch.setattr(placement, "_place", lambda *a: by_rule.append(a) or rule(*a))
    p = place_mentions([d.text or "" for d in docs], doc, texts, ["X"] * len(texts),
                       policy=policy)
    assert len(set(p.doc.tolist())) > 50
    assert len(p.unaligned) > 50
    dup = sum(len({t for t, _ in a}) < len(a) for a in answers)
    assert dup > 100
    assert 20 < len(by_rule) < (dup if policy != "all" else len(docs)) - 50


@pytest.mark.parametrize("normalize", NORMALIZATIONS)
@pytest.mark.parametrize("policy", POLICIES)
def test_align_outputs_equals_parse_then_align_mentions(policy, normalize):
    docs, answers = _corpus(11, 200)
    rng = random.Random(3)
    outputs = [_output(rng, a, d.text or "") for d, a in zip(docs, answers, strict=True)]
    res = align_outputs(docs, outputs, align=policy, normalize=normalize)
    lost, mentions, unaligned, ambiguous, failures = [], 0, 0, 0, 0
    for d, out in zip(docs, outputs, strict=True):
        parsed = (parse_llm_output(out) if isinstance(out, str)
                  else nerscore.ParsedOutput([m if isinstance(m, Mention) else Mention(**m)
                                              for m in out], "mentions"))
        a = align_mentions(d.text or "", parsed, policy=policy, normalize=normalize)
        assert res.pred[str(d.id)] == [(e.start, e.end, e.label) for e in a.entities], out
        lost += a.unaligned
        mentions += len(parsed.mentions)
        unaligned += len(a.unaligned)
        ambiguous += a.ambiguous
        failures += parsed.failed
    assert res.lost == lost
    s = res.summary
    assert (s.mentions, s.unaligned, s.ambiguous, s.parse_failures) == (
        mentions, unaligned, ambiguous, failures)
    assert failures > 5
    assert unaligned > 50


@pytest.mark.parametrize("policy", POLICIES)
def test_evaluate_llm_scores_all_documents_as_each_one_alone(policy):
    docs, answers = _corpus(5, 40)
    rng = random.Random(9)
    gold = [Document(d.id, [(s, e, "LOC") for s, e, _ in
                            align_items(d.text or "", [(t, "LOC", None, None) for t, _ in a
                                                       if rng.random() < 0.7]).spans], d.text)
            for d, a in zip(docs, answers, strict=True)]
    outputs = [_output(rng, a, d.text or "") for d, a in zip(docs, answers, strict=True)]
    whole = evaluate_llm(gold, outputs, align=policy, zero_division=0.0)
    alone = [evaluate_llm([g], [o], align=policy, zero_division=0.0)
             for g, o in zip(gold, outputs, strict=True)]
    for field in ("tp", "fp", "fn"):
        assert getattr(whole.micro, field) == sum(getattr(r.micro, field) for r in alone)
    llm = whole.extra["llm"]
    for key in ("mentions", "unaligned", "ambiguous", "parse_failures", "repaired"):
        assert llm[key] == sum(r.extra["llm"][key] for r in alone), key
    # (labels map to the gold schema, which differs between one document and all)
    assert [(m["id"], m["text"]) for m in llm["unaligned_mentions"]] == [
        (m["id"], m["text"]) for r in alone for m in r.extra["llm"]["unaligned_mentions"]]
