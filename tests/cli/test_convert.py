"""``nerscore convert``: the spelling of the output tags (--to-suffix/--to-prefix, --to-tag-delimiter, --to-outside), and its defaults."""

from __future__ import annotations

from pathlib import Path

import pytest

import nerscore
from nerscore.cli import main
from nerscore.io.formats import get_format


def run(capsys: pytest.CaptureFixture[str], *argv: str | Path) -> tuple[int, str, str]:
    status = main([str(a) for a in argv])
    out, err = capsys.readouterr()
    assert "Traceback" not in err
    return status, out, err


def write(path: Path, text: str) -> Path:
    path.write_text(text, encoding="utf-8")
    return path


@pytest.mark.parametrize(("text", "flags", "expected"), [
    # B_PER -> B-PER, the scheme kept
    ("Anna B_PER\nleft O\n", ["--from-scheme", "IOB2", "--tag-delimiter", "_",
                              "--to-tag-delimiter", "-"], "Anna B-PER\nleft O\n"),
    # PER-B (suffix style) -> B-PER
    ("Anna PER-B\nSmith PER-I\n", ["--from-scheme", "IOB2", "--suffix", "--to-prefix"],
     "Anna B-PER\nSmith I-PER\n"),
    # IOBES with '_' -> BILOU with '-'
    ("Anna S_PER\nNew B_LOC\nYork E_LOC\n", ["--from-scheme", "IOBES", "--to-scheme", "BILOU",
                                            "--tag-delimiter", "_", "--to-tag-delimiter", "-"],
     "Anna U-PER\nNew B-LOC\nYork L-LOC\n"),
    # OUT -> O, the labels copied without a scheme
    ("Anna B-PER\nleft OUT\n", ["--outside", "OUT", "--to-outside", "O"], "Anna B-PER\nleft O\n"),
    # copied and re-spelled: every part of the spelling at once
    ("Anna B_PER\nleft OUT\nin B\n", ["--tag-delimiter", "_", "--outside", "OUT", "--to-suffix",
                                      "--to-tag-delimiter", "-", "--to-outside", "O"],
     "Anna PER-B\nleft O\nin B\n"),
    # the same spelling on both sides: the same bytes, whatever the tags
    ("Anna B_PER\nleft OUT\nin odd\n", ["--tag-delimiter", "_", "--outside", "OUT", "--to-prefix",
                                        "--to-tag-delimiter", "_", "--to-outside", "OUT"],
     "Anna B_PER\nleft OUT\nin odd\n"),
])
def test_tags_are_respelled_in_one_run(capsys, tmp_path, text, flags, expected):
    src = write(tmp_path / "a.conll", text)
    status, out, err = run(capsys, "convert", src, tmp_path / "b.conll", *flags)
    assert (status, out) == (0, "")
    assert err == f"nerscore convert: note: wrote 1 sentence (conll to conll) to {tmp_path}/b.conll\n"
    assert (tmp_path / "b.conll").read_text(encoding="utf-8") == expected


def test_spans_are_written_as_tags_in_the_output_spelling(capsys, tmp_path):
    src = write(tmp_path / "a.jsonl", '{"id": "d", "text": "Anna left", "spans": [[0, 4, "PER"]]}\n')
    assert run(capsys, "convert", src, tmp_path / "b.conll", "--to-suffix", "--to-tag-delimiter",
               "_", "--to-outside", "NONE")[0] == 0
    assert (tmp_path / "b.conll").read_text(encoding="utf-8") == "Anna PER_B\nleft NONE\n\n"


@pytest.mark.parametrize(("src", "flags", "message"), [
    ("a.conll", ["b.jsonl", "--from-scheme", "IOB2", "--to-tag-delimiter", "_"],
     "error: --to-tag-delimiter _ spells the output tags; {tmp}/b.jsonl gets spans: leave it out. "
     "See 'nerscore convert --help'."),
    ("a.jsonl", ["b.jsonl", "--to-suffix"], "error: --to-suffix spells the output tags; "),
    ("a.jsonl", ["b.parquet", "--to-prefix"], "error: --to-prefix spells the output tags; "
     "{tmp}/b.parquet gets spans: leave it out."),
    ("a.jsonl", ["b.jsonl", "--to-outside", "O"], "error: --to-outside O spells the output tags;"),
    ("a.jsonl", ["b.conll", "--suffix", "--to-prefix"], "error: --suffix spells the input tags, "
     "and the output tags unless they have their own spelling (--to-suffix/--to-prefix); "
     "{tmp}/a.jsonl holds spans and the output tags have their own spelling: leave it out."),
    ("a.conll", ["b.conll", "--tag-delimiter", "_"], "error: --tag-delimiter _ spells the input "
     "tags, and the output tags unless they have their own spelling (--to-tag-delimiter); the "
     "input tags are copied as they are: pass the scheme of the input tags too, e.g. "
     "--from-scheme IOB2, or respell them, e.g. --to-tag-delimiter -."),
    ("a.conll", ["b.conll", "--to-suffix", "--to-prefix"],
     "argument --to-prefix: not allowed with argument --to-suffix"),
])
def test_a_spelling_that_applies_to_nothing_is_a_usage_error(capsys, tmp_path, src, flags,
                                                             message):
    write(tmp_path / "a.conll", "Anna B-PER\n")
    write(tmp_path / "a.jsonl", '{"id": "d", "text": "Anna", "spans": []}\n')
    status, out, err = run(capsys, "convert", tmp_path / src,
                           *(str(tmp_path / f) if "." in f else f for f in flags))
    assert (status, out) == (2, "")
    assert message.format(tmp=tmp_path) in err
    assert not (tmp_path / flags[0]).exists()


def test_a_tag_the_input_spelling_cannot_read_is_located(capsys, tmp_path):
    src = write(tmp_path / "a.conll", "Anna B_PER\nleft OUT\n\nBo B-PER\n")
    status, out, err = run(capsys, "convert", src, tmp_path / "b.conll", "--tag-delimiter", "_",
                           "--outside", "OUT", "--to-tag-delimiter", "-", "--to-outside", "O")
    assert (status, out) == (1, "")
    assert err.startswith("nerscore convert: error: Invalid tag 'B-PER' at token 0 ('Bo') of "
                          f"sentence 1 ({src}, line 4): expected the outside tag or PREFIX_TYPE "
                          "with a prefix in B, ")
    assert not (tmp_path / "b.conll").exists()


@pytest.mark.parametrize("chunk_size", ["1", "2"])
@pytest.mark.parametrize(("src", "dst", "flags"), [
    ("a.conll", "b.conll", ["--to-outside", "NONE"]),                      # respelled
    ("a.conll", "b.conll", ["--from-scheme", "IOB2", "--to-scheme", "BILOU"]),  # decoded, retagged
    ("a.conll", "b.jsonl", ["--from-scheme", "IOB2"]),                      # decoded into spans
    ("a.conll", "b.parquet", ["--from-scheme", "IOB2"]),
    ("a.parquet", "b.jsonl", ["--from-scheme", "IOB2"]),
    ("a.parquet", "b.parquet", ["--to-outside", "NONE"]),
])
def test_messages_name_the_sentence_of_the_file_not_of_the_chunk(capsys, tmp_path, src, dst,
                                                                 flags, chunk_size):
    write(tmp_path / "a.conll", "a B-X\n\n-DOCSTART- O\n\nb O\n\nc O\nd PER\n")
    if src.endswith(".parquet"):
        pytest.importorskip("pyarrow")
        assert run(capsys, "convert", tmp_path / "a.conll", tmp_path / src)[0] == 0
    if dst.endswith(".parquet"):
        pytest.importorskip("pyarrow")
    status, out, err = run(capsys, "convert", tmp_path / src, tmp_path / dst, "--chunk-size",
                           chunk_size, *flags)
    assert (status, out) == (1, "")
    line = ", line 8" if src.endswith(".conll") else ""
    assert err.startswith("nerscore convert: error: Invalid tag 'PER' at token 1 ")
    assert f" of sentence 2 ({tmp_path / src}{line}): expected the outside tag or " in err
    assert not (tmp_path / dst).exists()


@pytest.mark.parametrize("flags", [["b.jsonl", "--from-scheme", "IOB2"],
                                   ["b.conll", "--from-scheme", "IOB2", "--to-scheme", "IOB1"],
                                   ["b.conll", "--to-outside", "NONE"]])
def test_the_hint_for_bare_labels_names_the_scheme_flag_of_convert(capsys, tmp_path, flags):
    src = write(tmp_path / "a.conll", "Anna PER\nleft O\n")
    status, out, err = run(capsys, "convert", src, tmp_path / flags[0], *flags[1:])
    assert (status, out) == (1, "")
    assert err.endswith("; for bare labels without prefixes pass --from-scheme IO.\n")


def test_an_invalid_tag_of_a_line_starting_with_a_hash_names_the_comments_flag(capsys, tmp_path):
    src = write(tmp_path / "a.conll", "# c\nAnna B-PER\nleft O\n")
    status, out, err = run(capsys, "convert", src, tmp_path / "b.jsonl", "--from-scheme", "IOB2")
    assert (status, out) == (1, "")
    assert "Invalid tag 'c' at token 0 ('#') of sentence 0" in err
    assert err.endswith("; the line starts with '#': if it is a comment, pass --comments to skip "
                        "comment lines.\n")


def test_the_hint_names_the_scheme_flag_of_convert_for_the_gold_of_model_outputs(capsys,
                                                                                 tmp_path):
    gold = write(tmp_path / "gold.conll", "Anna PER\nleft O\n")
    llm = write(tmp_path / "llm.jsonl", '{"output": "PER: Anna"}\n')
    status, out, err = run(capsys, "convert", llm, tmp_path / "o.jsonl", "--gold", gold,
                           "--from-scheme", "IOB2")
    assert (status, out) == (1, "")
    assert err.endswith("; for bare labels without prefixes pass --from-scheme IO.\n")


@pytest.mark.parametrize(("flags", "message"), [
    (["--outside", "B-PER", "--from-scheme", "IOB2"], "--outside B-PER is spelled as an entity "
     "tag (prefix 'B', type 'PER'): the tags would not say whether a token is outside every "
     "entity or in one. Give an outside tag that no entity tag spells, e.g. --outside O. See "
     "'nerscore convert --help'.\n"),
    (["--to-outside", "I-LOC"], "--to-outside I-LOC is spelled as an entity tag (prefix 'I', "
     "type 'LOC'): "),
])
def test_an_outside_tag_spelled_as_an_entity_tag_is_a_usage_error(capsys, tmp_path, flags,
                                                                  message):
    src = write(tmp_path / "a.conll", "Anna B-PER\nleft O\n")
    status, out, err = run(capsys, "convert", src, tmp_path / "b.conll", *flags)
    assert (status, out) == (2, "")
    assert err.startswith("nerscore convert: error: ")
    assert message in err
    assert not (tmp_path / "b.conll").exists()


def test_help_says_which_file_each_spelling_option_describes(capsys, monkeypatch):
    monkeypatch.setenv("COLUMNS", "400")  # one line per option
    assert main(["convert", "--help"]) == 0
    text = " ".join(capsys.readouterr().out.split())
    assert "--suffix the tags of IN (and of OUT, unless --to-prefix) are written" in text
    assert "in the tags of IN (and of OUT, unless --to-tag-delimiter)" in text
    assert "the outside tag of IN (and of OUT, unless --to-outside)" in text
    assert "--to-outside TAG the outside tag of OUT (default: --outside)" in text
    assert "--encoding ENCODING encoding of the input files and of OUT (default: utf-8)" in text


@pytest.mark.parametrize(("src", "flags", "message"), [
    ("a.conll", ["--to-outside", "A B"], "The outside tag 'A B' of the output (--to-outside) "
     "holds ' ', which no label of a conll file can hold: give the output one without it, e.g. "
     "--to-outside O, or convert to another format (Parquet). See 'nerscore convert --help'.\n"),
    ("a.conll", ["--to-tag-delimiter", " "], "The tag delimiter ' ' of the output "
     "(--to-tag-delimiter) holds ' ', "),
    ("a.conll", ["--from-scheme", "IOB2", "--outside", "A B"], "The outside tag 'A B' of the "
     "input, and of the output (--outside), holds ' ', which no label of a conll file can hold: "
     "give the output one without it, e.g. --to-outside O, "),
    ("a.conll", ["--from-scheme", "IOB2", "--tag-delimiter", "\t"], "The tag delimiter '\\t' of "
     "the input, and of the output (--tag-delimiter), holds '\\t', "),
    ("a.jsonl", ["--outside", "NO NE"], "The outside tag 'NO NE' of the output (--outside) "),
    ("a.conll", ["--from-scheme", "IOB2", "--map", "PER=A B"], "The label 'A B' that the label "
     "map (--map) renames 'PER' to holds ' ', which no label of a conll file can hold: map it "
     "to a label without it, or convert to another format (Parquet)."),
    ("a.conll", ["--to-outside", "Ö", "--encoding", "ascii"], "The outside tag 'Ö' of the "
     "output (--to-outside) holds 'Ö', which ascii cannot encode: give the output one without "
     "it, e.g. --to-outside O, or write the output in another encoding, e.g. --encoding utf-8."),
    ("a.conll", ["--from-scheme", "IOB2", "--tag-delimiter", ""], "argument --tag-delimiter: "
     "expected at least one character; got ''."),
])
def test_a_spelling_the_output_cannot_hold_is_a_usage_error(capsys, tmp_path, src, flags,
                                                            message):
    write(tmp_path / "a.conll", "Anna B-PER\nleft O\n")
    write(tmp_path / "a.jsonl", '{"id": "d", "text": "Anna left", "spans": [[0, 4, "PER"]]}\n')
    out = write(tmp_path / "b.conll", "old\n")
    status, stdout, err = run(capsys, "convert", tmp_path / src, out, *flags)
    assert (status, stdout) == (2, "")
    assert err.startswith("nerscore convert: error: ")
    assert message in err
    assert out.read_text(encoding="utf-8") == "old\n"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["a.conll", "a.jsonl", "b.conll"]


@pytest.mark.parametrize("chunk_size", ["1", "10000"])
def test_a_label_conll_cannot_hold_is_located_and_nothing_is_written(capsys, tmp_path,
                                                                     chunk_size):
    src = write(tmp_path / "a.jsonl", '{"id": "d0", "text": "Anna", "spans": [[0, 4, "PER"]]}\n'
                '{"id": "d1", "text": "in New York", "spans": [[3, 11, "NEW CITY"]]}\n')
    out = write(tmp_path / "b.conll", "old\n")
    status, stdout, err = run(capsys, "convert", src, out, "--chunk-size", chunk_size)
    assert (status, stdout) == (1, "")
    assert err == (f"nerscore convert: error: Cannot write the label 'B-NEW CITY' at token 1 of "
                   f"document 'd1' ({src}, line 2) to a CoNLL line: its fields, separated by "
                   "spaces, must be non-empty and free of white space and control characters. "
                   "Fix the input or rename the label (--map), or convert to another format "
                   "(Parquet, JSON Lines).\n")
    assert out.read_text(encoding="utf-8") == "old\n"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["a.jsonl", "b.conll"]


def test_a_label_brat_cannot_hold_is_located_and_no_file_is_written(capsys, tmp_path):
    src = write(tmp_path / "a.jsonl", '{"id": "d0", "text": "Anna", "spans": [[0, 4, "PER"]]}\n'
                '{"id": "d1", "text": "in New York", "spans": [[3, 11, "NEW CITY"]]}\n')
    status, stdout, err = run(capsys, "convert", src, f"{tmp_path}/out/", "--chunk-size", "1")
    assert (status, stdout) == (1, "")
    assert err == (f"nerscore convert: error: {src}, line 2: label 'NEW CITY' of document 'd1' "
                   "cannot be written to BRAT; labels must be non-empty and without whitespace. "
                   "Rename it (--map), or convert to another format (JSON Lines, Parquet).\n")
    assert sorted(p.name for p in tmp_path.iterdir()) == ["a.jsonl"]


@pytest.mark.parametrize("encoding", ["ascii", "latin-1"])
@pytest.mark.parametrize("fmt", ["jsonl", "label-studio", "doccano", "prodigy"])
def test_json_output_in_a_narrow_encoding_escapes_what_it_cannot_encode(capsys, tmp_path, fmt,
                                                                         encoding):
    docs = [nerscore.Document("1", [(0, 3, "PER"), (8, 14, "PER")], "Zoë met Łukasz 😀")]
    src = tmp_path / "a.jsonl"
    nerscore.write_jsonl(docs, src, encoding="ascii")  # escapes only: readable in any encoding
    out = tmp_path / "b.out"
    status, _, err = run(capsys, "convert", src, out, "--to-format", fmt, "--encoding", encoding,
                         "--map", "PER=PÉR")
    assert status == 0, err
    assert "\\u0141ukasz" in out.read_bytes().decode(encoding)
    back = get_format(fmt).read(str(out), {"encoding": encoding}).data
    assert [(d.id, d.text, d.span_texts(), [e.label for e in d.spans]) for d in back] == [
        ("1", "Zoë met Łukasz 😀", ["Zoë", "Łukasz"], ["PÉR", "PÉR"])]


def _argparse_empties_double_dash() -> bool:
    """Whether this Python's argparse takes ``--x=--`` as no value (3.13 keeps ``--``)."""
    import argparse

    parser = argparse.ArgumentParser()
    parser.add_argument("--x", nargs=None)
    try:
        return parser.parse_args(["--x=--"]).x != "--"
    except SystemExit:
        return True


#: What ``--tag-delimiter=--`` gives: argparse's empty value, or ``--`` itself, a delimiter that
#: the label copy has no use for without a scheme.
_DOUBLE_DASH = ("argument --tag-delimiter: cannot be '--', which argparse reads as the end of the "
                "options." if _argparse_empties_double_dash() else
                "--tag-delimiter=-- spells the input tags")


@pytest.mark.parametrize(("flags", "message"), [
    (["--to-outside", ""], "argument --to-outside: expected at least one character; got ''."),
    (["--outside", ""], "argument --outside: expected at least one character; got ''."),
    (["--to-tag-delimiter", ""], "argument --to-tag-delimiter: expected at least one character; "
     "got ''."),
    (["--tag-delimiter=--"], _DOUBLE_DASH),
    (["--to-tag-delimiter", "B"], "error: --to-tag-delimiter B is made of the prefix letter 'B': "
     "the tag 'BBTYPE' would split inside its prefix, not read back as prefix 'B', type 'TYPE'. "
     "Give a delimiter of other characters, e.g. --to-tag-delimiter -."),
    (["--from-scheme", "IOB2", "--tag-delimiter", "I"], "error: --tag-delimiter I is made of the "
     "prefix letter 'I'"),
])
def test_a_tag_or_delimiter_no_tag_can_be_read_with_is_a_usage_error(capsys, tmp_path, flags,
                                                                    message):
    src = write(tmp_path / "a.conll", "Anna B-PER\nleft O\n")
    status, out, err = run(capsys, "convert", src, tmp_path / "b.conll", *flags)
    assert (status, out) == (2, "")
    assert message in err
    assert not (tmp_path / "b.conll").exists()


@pytest.mark.parametrize(("value", "shown"), [
    ("--", "--tag-delimiter=--"), (" ", "--tag-delimiter ' '"), ("", "--tag-delimiter ''"),
    ("_", "--tag-delimiter _"),
])
def test_keyword_values_become_flags_a_shell_takes_back(value, shown):
    from nerscore.cli._flags import keywords_to_flags

    message = f"delimiter={value!r} spells the input tags, e.g. to_delimiter={value!r}."
    assert keywords_to_flags(message) == (f"{shown} spells the input tags, e.g. --to-"
                                          f"{shown[2:]}.")


def test_the_default_chunk_size_is_one_constant(capsys, monkeypatch, tmp_path):
    import inspect

    import nerscore.io.convert
    from nerscore.io.defaults import CHUNK_SIZE

    assert inspect.signature(nerscore.convert_file).parameters["chunk_size"].default == CHUNK_SIZE
    monkeypatch.setenv("COLUMNS", "400")
    assert main(["convert", "--help"]) == 0
    text = " ".join(capsys.readouterr().out.split())
    assert f"--chunk-size N sentences or documents per chunk (default: {CHUNK_SIZE})" in text
    given = []

    def spy(*args, chunk_size, **kwargs):
        given.append(chunk_size)
        return real(*args, chunk_size=chunk_size, **kwargs)

    real = nerscore.io.convert.convert_file
    monkeypatch.setattr(nerscore.io.convert, "convert_file", spy)
    src = write(tmp_path / "a.conll", "Anna B-PER\n")
    assert run(capsys, "convert", src, tmp_path / "b.conll")[0] == 0
    assert run(capsys, "convert", src, tmp_path / "c.conll", "--chunk-size", "7")[0] == 0
    assert given == [CHUNK_SIZE, 7]


@pytest.mark.parametrize("name", ["gold", "gold.out"])
def test_an_output_name_no_format_claims_is_written_as_conll_with_a_note(capsys, tmp_path,
                                                                         name):
    src = write(tmp_path / "a.jsonl", '{"id": "d", "text": "Anna left", "spans": '
                                      '[[0, 4, "PER"]]}\n')
    out = tmp_path / name
    status, _, err = run(capsys, "convert", src, out)
    assert status == 0
    assert (f"nerscore convert: note: OUT {out} has no suffix a format claims, so it is written "
            "as a conll file, as an input so named is read; name it with a format's suffix "
            "(.conll, .jsonl, ...) or give --to-format to write another format.\n" in err)
    assert out.read_text(encoding="utf-8") == "Anna B-PER\nleft O\n\n"
    # a suffix a format claims, a folder, or the format named: nothing was guessed
    for argv in ([tmp_path / "b.conll"], [tmp_path / "b.jsonl"], [f"{tmp_path / 'brat'}/"],
                 [tmp_path / "named", "--to-format", "conll"]):
        status, _, err = run(capsys, "convert", src, *argv)
        assert status == 0
        assert "no suffix a format claims" not in err


def test_a_utf8_mark_in_ascii_input_is_an_error_of_every_command(capsys, tmp_path):
    """EF BB BF cannot be ASCII: convert, repair and score give the decoding error, nothing written."""
    src = tmp_path / "a.conll"
    src.write_bytes(b"\xef\xbb\xbfAnna B-PER\nleft O\n")
    error = (f"Cannot decode byte 0xef as ascii ({src}, line 1): the file is in another "
             "encoding.")
    for argv, out in ((("convert", src, tmp_path / "b.conll"), tmp_path / "b.conll"),
                      (("repair", src, "--scheme", "IOB2", "-o", tmp_path / "c.conll"),
                       tmp_path / "c.conll"),
                      (("score", src, src, "--scheme", "IOB2"), None)):
        status, _, err = run(capsys, *argv, "--encoding", "ascii")
        assert status != 0
        assert error in err, argv[0]
        assert out is None or not out.exists()
