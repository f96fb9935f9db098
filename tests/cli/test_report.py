"""``nerscore report``: PRED files read beside GOLD; a TRAIN with the bytes of GOLD read once."""

from __future__ import annotations

import shutil
import threading

import pytest

from nerscore.cli import main
from nerscore.io import chunks
from nerscore.io._conll_text import FieldView
from nerscore.io.formats import Format
from tests.paths import TESTS

DATA = TESTS / "data" / "diagnostics"


def _page(tmp_path, monkeypatch, train, name: str) -> tuple[str, list[str]]:
    loaded: list[str] = []
    load = Format.load
    monkeypatch.setattr(Format, "load", lambda self, path, options=None: (
        loaded.append(str(path)), load(self, path, options))[1])
    out = tmp_path / f"{name}.html"
    assert main(["report", str(DATA / "test.conll"), str(DATA / "pred.conll"), "--train",
                 str(train), "--scheme", "IOB2", "-o", str(out), "-q"]) == 0
    return out.read_text(encoding="utf-8"), loaded


def test_a_train_file_with_the_bytes_of_gold_reuses_gold_as_read(tmp_path, monkeypatch):
    copy = tmp_path / "copy.conll"
    shutil.copyfile(DATA / "test.conll", copy)
    same, loaded = _page(tmp_path, monkeypatch, copy, "same")
    assert sorted(loaded) == [str(DATA / "pred.conll"), str(DATA / "test.conll")]
    longer = tmp_path / "longer.conll"  # one more blank line: other bytes, the same sentences
    longer.write_bytes(copy.read_bytes() + b"\n")
    read, loaded = _page(tmp_path, monkeypatch, longer, "read")
    assert loaded[-1] == str(longer)
    assert read == same
    other, _ = _page(tmp_path, monkeypatch, DATA / "train.conll", "other")
    assert other != same


def _threads_of_loads(monkeypatch) -> dict[str, str]:
    """Load every file in a thread when two CPUs are there; which thread read which file."""
    monkeypatch.setattr(chunks, "usable_cpus", lambda: 2)
    where: dict[str, str] = {}
    load = Format.load
    monkeypatch.setattr(Format, "load", lambda self, path, options=None: (
        where.__setitem__(str(path), threading.current_thread().name),
        load(self, path, options))[1])
    return where


def test_pred_files_are_read_beside_gold_and_scored_in_order(tmp_path, monkeypatch, capsys):
    where = _threads_of_loads(monkeypatch)
    preds = []
    for k, text in enumerate(["B-PER\nO\n", "B-LOC\nO\n", "B-PER\nB-LOC\n"]):
        preds.append(tmp_path / f"p{k}.conll")
        preds[-1].write_text("".join(f"w{i} {t}\n" for i, t in enumerate(text.split())))
    gold = tmp_path / "g.conll"
    gold.write_text("w0 B-PER\nw1 O\n")
    out = tmp_path / "r.html"
    assert main(["report", str(gold), *map(str, preds), "-o", str(out), "-q"]) == 0
    assert where[str(gold)] == threading.main_thread().name
    assert {where[str(p)] for p in preds} == {"nerscore-read-ahead"}
    sequential = tmp_path / "s.html"
    monkeypatch.setattr(chunks, "usable_cpus", lambda: 1)
    assert main(["report", str(gold), *map(str, preds), "-o", str(sequential), "-q"]) == 0
    assert sequential.read_text(encoding="utf-8") == out.read_text(encoding="utf-8")
    assert where[str(preds[0])] == threading.main_thread().name


@pytest.mark.parametrize("bad", ["gold", "second pred"])
def test_a_bad_file_read_in_a_thread_or_not_is_named(bad, tmp_path, monkeypatch, capsys):
    _threads_of_loads(monkeypatch)
    good, broken = "w0 B-PER\nw1 O\n", "w0 B-PER\nw1\n"
    files = {"gold": good, "first pred": good, "second pred": good} | {bad: broken}
    paths = []
    for name, text in files.items():
        paths.append(tmp_path / (name.replace(" ", "_") + ".conll"))
        paths[-1].write_text(text)
    assert main(["report", *map(str, paths), "-o", str(tmp_path / "r.html"), "-q"]) == 1
    err = capsys.readouterr().err
    assert f"line 2 of {paths[list(files).index(bad)]}" in err
    assert "Traceback" not in err
    assert not (tmp_path / "r.html").exists()


def _report(tmp_path, name: str, *extra: str) -> str:
    out = tmp_path / f"{name}.html"
    assert main(["report", str(DATA / "test.conll"), str(DATA / "pred.conll"), "--train",
                 str(DATA / "train.conll"), "-o", str(out), "-q", *extra]) == 0
    return out.read_text(encoding="utf-8")


def _interning_threads(monkeypatch) -> list[str]:
    where: list[str] = []
    interned = FieldView.interned
    monkeypatch.setattr(FieldView, "interned", lambda self: (
        where.append(threading.current_thread().name), interned(self))[1])
    return where


def test_gold_tokens_are_numbered_in_a_thread_while_scoring(tmp_path, monkeypatch, capsys):
    where = _interning_threads(monkeypatch)
    monkeypatch.setattr(chunks, "usable_cpus", lambda: 1)
    alone = _report(tmp_path, "alone")
    assert where == []  # one CPU: the browser numbers its rows' tokens itself
    monkeypatch.setattr(chunks, "usable_cpus", lambda: 2)
    aside = _report(tmp_path, "aside")
    assert where[0] == "nerscore-intern"
    assert aside == alone
    where.clear()
    _report(tmp_path, "no-errors", "--no-errors")
    assert where == []  # no browser: nothing to number


def test_numbering_that_fails_in_its_thread_is_done_again_by_the_browser(tmp_path, monkeypatch,
                                                                        capsys):
    monkeypatch.setattr(chunks, "usable_cpus", lambda: 1)
    alone = _report(tmp_path, "alone")
    monkeypatch.setattr(chunks, "usable_cpus", lambda: 2)
    where = _interning_threads(monkeypatch)

    def fail(self):
        raise MemoryError

    monkeypatch.setattr(FieldView, "_intern_all", fail)
    assert _report(tmp_path, "failed") == alone
    assert where == ["nerscore-intern"]  # the browser hashed its rows alone
    assert "Traceback" not in capsys.readouterr().err


def test_predictions_some_of_them_scored_get_a_note_and_a_curves_section_saying_why(
        tmp_path, capsys):
    gold = tmp_path / "gold.jsonl"
    gold.write_text('{"id": "a", "spans": [[0, 4, "PER"], [5, 9, "LOC"]]}\n', encoding="utf-8")
    some = tmp_path / "some.jsonl"
    some.write_text('{"id": "a", "spans": [[0, 4, "PER", 0.9], [5, 9, "LOC"]]}\n',
                    encoding="utf-8")
    none = tmp_path / "none.jsonl"
    none.write_text('{"id": "a", "spans": [[0, 4, "PER"]]}\n', encoding="utf-8")
    out = tmp_path / "r.html"
    assert main(["report", str(gold), str(some), "-o", str(out)]) == 0
    err = capsys.readouterr().err
    assert (f"nerscore report: note: {some}: no curves: Curves and calibration need a score on "
            "every prediction; 1 of the 2 predictions have none (the first is (5, 9, 'LOC') of "
            "document 'a').") in err
    why = ("<p>No curves for some: 1 of its 2 predictions lacks a score (curves need one on "
           "every prediction).</p>")
    page = out.read_text(encoding="utf-8")
    assert f'<section id="curves"><h2>Curves</h2>{why}</section>' in page
    assert '<a href="#curves">Curves</a>' in page
    more = tmp_path / "more.jsonl"
    more.write_text('{"id": "a", "spans": [[0, 4, "PER"], [5, 9, "LOC", 0.5]]}\n',
                    encoding="utf-8")
    assert main(["report", str(gold), str(some), str(more), str(none), "-o", str(out),
                 "--resamples", "40", "-q"]) == 0  # no system with curves: still said why
    page = out.read_text(encoding="utf-8")
    assert ('<section id="curves"><h2>Curves</h2><p>No curves for none: their predictions have '
            f"no scores.</p>{why}{why.replace('some', 'more')}</section>") in page
    assert main(["report", str(gold), str(none), "-o", str(out)]) == 0  # no score at all
    assert "no curves" not in capsys.readouterr().err
    assert 'id="curves"' not in out.read_text(encoding="utf-8")


def test_scores_outside_0_1_say_why_the_reliability_diagram_is_missing(tmp_path, capsys):
    gold = tmp_path / "gold.jsonl"
    gold.write_text('{"id": "a", "spans": [[0, 4, "PER"], [5, 9, "LOC"]]}\n', encoding="utf-8")
    logp = tmp_path / "logp.jsonl"
    logp.write_text('{"id": "a", "spans": [[0, 4, "PER", -0.1], [5, 9, "LOC", 0.5], '
                    '[10, 12, "LOC", 1.5]]}\n', encoding="utf-8")
    out = tmp_path / "r.html"
    assert main(["report", str(gold), str(logp), "-o", str(out)]) == 0
    why = ("No reliability diagram: calibration needs scores in [0, 1] (probabilities); 2 of the "
           "3 predictions are scored outside it (from -0.1 to 1.5). Map the scores to "
           "probabilities first (e.g. exp of a log-probability).")
    assert (f"nerscore report: note: {logp}: no reliability diagram: Calibration needs scores "
            "in [0, 1] (probabilities); 2 of the 3 predictions") in capsys.readouterr().err
    page = out.read_text(encoding="utf-8")
    section = page[page.index('id="curves"'):page.index("</section>", page.index('id="curves"'))]
    assert section.count("<svg") == 2
    assert f"<p>{why}</p>" in section


def test_the_significance_section_notes_intervals_every_resample_of_which_is_equal(tmp_path):
    gold = tmp_path / "gold.jsonl"
    pred = tmp_path / "pred.jsonl"  # every PER found, no LOC: precision 1 in every resample
    gold.write_text("".join(f'{{"id": "d{i}", "spans": [[0, 4, "PER"], [5, 9, "LOC"]]}}\n'
                            for i in range(12)), encoding="utf-8")
    pred.write_text("".join(f'{{"id": "d{i}", "spans": [[0, 4, "PER"]]}}\n' for i in range(12)),
                    encoding="utf-8")
    out = tmp_path / "r.html"
    assert main(["report", str(gold), str(pred), str(gold), "--names", "P", "G", "-o", str(out),
                 "--resamples", "40", "-q"]) == 0
    page = out.read_text(encoding="utf-8")
    assert "bootstrap intervals have zero width (P micro P" in page


def test_the_significance_section_notes_intervals_that_resamples_leave_undefined(tmp_path):
    from tests.cli.test_compare import _rare_files

    gold, a, b = _rare_files(tmp_path)
    out = tmp_path / "r.html"
    argv = ["report", gold, a, b, "--names", "A", "B", "-o", str(out), "--resamples", "200",
            "-q"]
    assert main([*argv, "--zero-division", "nan"]) == 0
    page = out.read_text(encoding="utf-8")
    assert ("No bootstrap interval of 2 scores (B micro P and B macro P): in 2 of 200 "
            "resamples they are undefined") in page
    assert main(argv) == 0
    assert "No bootstrap interval" not in out.read_text(encoding="utf-8")


def test_the_significance_section_notes_scores_ill_defined_and_set_to_zero(tmp_path):
    from tests.cli.test_compare import SET_TO_ZERO, _conll, _rare_files

    gold, a, _ = _rare_files(tmp_path)
    nothing = _conll(tmp_path / "none.conll", [[["O", "O"]]] * 20)
    out = tmp_path / "r.html"
    argv = ["report", gold, a, nothing, "--names", "A", "N", "-o", str(out), "--resamples",
            "50", "-q"]
    assert main(argv) == 0
    assert SET_TO_ZERO.format("N")[6:] in out.read_text(encoding="utf-8")
    assert main([*argv, "--zero-division", "0"]) == 0
    assert "ill-defined" not in out.read_text(encoding="utf-8")


def test_span_files_refuse_the_options_of_tag_files(tmp_path, capsys):
    gold = tmp_path / "g.jsonl"
    gold.write_text('{"id": "a", "text": "Anna", "spans": [[0, 4, "PER"]]}\n', encoding="utf-8")
    assert main(["report", str(gold), str(gold), "--scheme", "IOB2", "-o", "-"]) == 2
    out, err = capsys.readouterr()
    assert out == ""
    assert ("--scheme says how the tags of tag files are read (CoNLL, Parquet tags, JSON Lines token records); the inputs "
            "are span files") in err


def test_gold_given_as_a_pred_file_is_noted_as_score_notes_it(tmp_path, capsys):
    gold = str(DATA / "test.conll")
    copy = tmp_path / "copy.conll"
    shutil.copyfile(gold, copy)
    out = tmp_path / "r.html"
    assert main(["report", gold, gold, str(copy), str(DATA / "pred.conll"), "--scheme", "IOB2",
                 "--resamples", "20", "-o", str(out)]) == 0
    same = f"gold and prediction are the same file ({gold}); the scores compare it with itself."
    copied = (f"gold and prediction are the same file: {gold} and {copy} have identical content, "
              "so the scores compare it with itself.")
    err = capsys.readouterr().err
    assert f"nerscore report: note: {same}\n" in err
    assert f"nerscore report: note: {copied}\n" in err
    assert err.count("same file") == 2  # not for pred.conll
    page = out.read_text(encoding="utf-8")
    assert same in page
    assert copied in page


def test_a_blank_system_name_is_a_usage_error(tmp_path, capsys):
    gold = str(DATA / "test.conll")
    out = tmp_path / "r.html"
    assert main(["report", gold, gold, gold, "--names", "A", " ", "-o", str(out)]) == 2
    assert "argument --names: expected a name to show in the output" in capsys.readouterr().err
    assert not out.exists()


def test_a_name_given_twice_is_named(tmp_path, capsys):
    gold = str(DATA / "test.conll")
    out = tmp_path / "r.html"
    assert main(["report", gold, gold, gold, "--names", "A", "A", "-o", str(out)]) == 2
    assert ("--names must be distinct, but 'A' is given twice; give one distinct name per PRED"
            in capsys.readouterr().err)
    assert not out.exists()


def test_label_operations_apply_to_the_curves_too(tmp_path, capsys):
    gold = tmp_path / "gold.jsonl"
    gold.write_text('{"id": "a", "spans": [[0, 4, "PER"], [5, 9, "LOC"]]}\n', encoding="utf-8")
    pred = tmp_path / "pred.jsonl"
    pred.write_text('{"id": "a", "spans": [[0, 4, "PER", 0.9], [5, 9, "LOC", 0.4]]}\n',
                    encoding="utf-8")
    out = tmp_path / "r.html"
    assert main(["report", str(gold), str(pred), "--drop", "LOC", "-o", str(out)]) == 0
    assert "error" not in capsys.readouterr().err
    assert '<section id="curves">' in out.read_text(encoding="utf-8")


def test_a_train_file_that_is_gold_is_noted(tmp_path, capsys):
    gold = str(DATA / "test.conll")
    out = tmp_path / "r.html"
    assert main(["report", gold, gold, "--train", gold, "-o", str(out)]) == 0
    assert f"nerscore report: warning: --train {gold}: train and test hold the same data" in \
        capsys.readouterr().err
    assert "train and test hold the same data" in out.read_text(encoding="utf-8")


def test_the_note_on_the_page_written_gives_its_system_and_size(tmp_path, capsys):
    out = tmp_path / "r.html"
    assert main(["report", str(DATA / "test.conll"), str(DATA / "pred.conll"), "--scheme", "IOB2",
                 "-o", str(out)]) == 0
    size = out.stat().st_size
    assert 1000 < size < 1_000_000
    assert (f"nerscore report: note: wrote {out} (system 'pred', {size / 1000:.1f} kB)\n"
            in capsys.readouterr().err)
