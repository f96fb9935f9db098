"""``nerscore.convert_file`` spells the output tags as ``to_suffix``, ``to_delimiter`` and ``to_outside`` say."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

import nerscore
from nerscore.errors import InvalidTagError, OptionError
from nerscore.io.conll import read_conll

UNDERSCORED = "Anna B_PER\nSmith I_PER\nleft OUT\nRome B_LOC\n\nBo B_PER\n"


def write(path: Path, text: str) -> Path:
    path.write_bytes(text.encode())
    return path


def labels(path: Path) -> list[list[str]]:
    return read_conll(path).to_lists()


def test_underscores_become_dashes_in_the_same_scheme(tmp_path):
    src = write(tmp_path / "a.conll", "Anna B_PER\nSmith I_PER\nleft O\nRome I_LOC\n")
    res = nerscore.convert_file(src, tmp_path / "b.conll", from_scheme="IOB2", delimiter="_",
                                to_delimiter="-")
    assert labels(tmp_path / "b.conll") == [["B-PER", "I-PER", "O", "B-LOC"]]
    assert res.notes() == ("1 malformed chunk read the lenient way and written well-formed.",)


def test_suffix_tags_become_prefix_tags(tmp_path):
    src = write(tmp_path / "a.conll", "Anna PER-B\nSmith PER-I\nleft O\nin ARGM-LOC-B\n")
    nerscore.convert_file(src, tmp_path / "b.conll", from_scheme="IOB2", suffix=True,
                          to_suffix=False)
    assert labels(tmp_path / "b.conll") == [["B-PER", "I-PER", "O", "B-ARGM-LOC"]]


def test_iobes_with_underscores_becomes_bilou_with_dashes_in_one_run(tmp_path):
    src = write(tmp_path / "a.conll", "Anna S_PER\nleft O\nNew B_LOC\nYork E_LOC\n\n"
                                      "The B_ORG\nNew I_ORG\nTimes E_ORG\n")
    nerscore.convert_file(src, tmp_path / "b.conll", from_scheme="IOBES", to_scheme="BILOU",
                          delimiter="_", to_delimiter="-")
    assert labels(tmp_path / "b.conll") == [["U-PER", "O", "B-LOC", "L-LOC"],
                                            ["B-ORG", "I-ORG", "L-ORG"]]


@pytest.mark.parametrize("from_scheme", [None, "IOB2"])
def test_the_outside_tag_is_respelled(tmp_path, from_scheme):
    src = write(tmp_path / "a.conll", "Anna B-PER\nleft OUT\n\nhome OUT\n")
    nerscore.convert_file(src, tmp_path / "b.conll", from_scheme=from_scheme, outside="OUT",
                          to_outside="O")
    assert (tmp_path / "b.conll").read_text() == "Anna B-PER\nleft O\n\nhome O\n"


def test_copied_labels_are_respelled_and_every_other_byte_kept(tmp_path):
    src = write(tmp_path / "a.conll", "# doc 1\r\nAnna NNP B_PER\r\nleft VBD OUT\r\n"
                                      "in IN B\r\n\r\nthe DT B_ARGM_LOC\r\n")
    res = nerscore.convert_file(src, tmp_path / "b.conll", delimiter="_", outside="OUT",
                                to_delimiter="-", to_outside="O", to_suffix=True,
                                conll_options={"comments": True})
    assert (tmp_path / "b.conll").read_bytes() == (
        b"# doc 1\r\nAnna NNP PER-B\r\nleft VBD O\r\nin IN B\r\n\r\nthe DT ARGM_LOC-B\r\n")
    assert res.notes() == ()


def test_copied_labels_are_respelled_into_parquet_with_their_vocabulary(tmp_path):
    pq = pytest.importorskip("pyarrow.parquet")
    src = write(tmp_path / "a.conll", UNDERSCORED)
    nerscore.convert_file(src, tmp_path / "a.parquet")
    before = pq.read_table(tmp_path / "a.parquet").column("labels").to_pylist()
    nerscore.convert_file(tmp_path / "a.parquet", tmp_path / "b.parquet", delimiter="_",
                          outside="OUT", to_delimiter="-", to_outside="O")
    meta = pq.ParquetFile(tmp_path / "b.parquet").metadata.metadata
    # integer labels: the ids are kept, the vocabulary is re-spelled
    assert json.loads(meta[b"nerscore.vocab.labels"]) == ["B-PER", "I-PER", "O", "B-LOC"]
    assert pq.read_table(tmp_path / "b.parquet").column("labels").to_pylist() == before
    nerscore.convert_file(tmp_path / "b.parquet", tmp_path / "b.conll")
    assert labels(tmp_path / "b.conll") == [["B-PER", "I-PER", "O", "B-LOC"], ["B-PER"]]


@pytest.mark.parametrize("from_scheme", [None, "IOB2"])
@pytest.mark.parametrize("through", ["conll", "parquet"])
def test_docstart_lines_get_the_output_outside_tag(tmp_path, through, from_scheme):
    if through == "parquet":
        pytest.importorskip("pyarrow")
    text = "-DOCSTART- -X- OUT\n\nAnna NNP B_PER\nleft VBD OUT\n\n-DOCSTART- -X- OUT\n\nBo NNP B_PER\n"
    src = write(tmp_path / "a.conll", text)
    if through == "parquet":
        nerscore.convert_file(src, tmp_path / "a.parquet", chunk_size=1)
        src = tmp_path / "a.parquet"
    res = nerscore.convert_file(src, tmp_path / "b.conll", from_scheme=from_scheme,
                                delimiter="_", outside="OUT", to_delimiter="-", to_outside="O",
                                chunk_size=1)
    assert (tmp_path / "b.conll").read_text() == ("-DOCSTART- -X- O\n\nAnna NNP B-PER\nleft VBD O"
                                                  "\n\n-DOCSTART- -X- O\n\nBo NNP B-PER\n")
    assert res.n_sequences == 2


@pytest.mark.parametrize(("line", "label_column", "kept"), [
    ("-DOCSTART-\t-X-\tOUT\r\n", -1, "-DOCSTART-\t-X-\tO\r\n"),  # tabs and CRLF kept
    ("-DOCSTART- OUT -X-\n", 1, "-DOCSTART- O -X-\n"),     # the label column is the given one
    ("-DOCSTART- -X- -X-\n", -1, "-DOCSTART- -X- -X-\n"),   # a label that is not the outside tag
    ("-DOCSTART-\n", -1, "-DOCSTART-\n"),                 # no label
])
def test_only_the_outside_label_of_a_docstart_line_is_respelled(tmp_path, line, label_column,
                                                                kept):
    tab = "\t" in line
    rest = "Anna\tB_PER\tx\n" if tab else "Anna B_PER x\n"
    if label_column == -1:
        rest = "Anna\tx\tB_PER\n" if tab else "Anna x B_PER\n"
    src = write(tmp_path / "a.conll", line + "\n" + rest)
    nerscore.convert_file(src, tmp_path / "b.conll", delimiter="_", outside="OUT",
                          to_delimiter="-", to_outside="O",
                          conll_options={"label_column": label_column})
    assert (tmp_path / "b.conll").read_bytes().decode() == (kept + "\n"
                                                            + rest.replace("B_PER", "B-PER"))


def test_a_vocabulary_tag_no_token_has_is_kept_and_noted(tmp_path):
    pq = pytest.importorskip("pyarrow.parquet")
    path = tmp_path / "a.parquet"
    nerscore.convert_file(write(tmp_path / "a.conll", UNDERSCORED), path)
    meta = {**pq.ParquetFile(path).metadata.metadata,
            b"nerscore.vocab.labels": b'["B_PER", "I_PER", "OUT", "B_LOC", "B-MISC"]'}
    meta.pop(b"ARROW:schema")
    pq.write_table(pq.read_table(path).replace_schema_metadata(meta), path)
    res = nerscore.convert_file(path, tmp_path / "b.parquet", delimiter="_", outside="OUT",
                                to_delimiter="-", to_outside="O")
    vocab = json.loads(pq.ParquetFile(tmp_path / "b.parquet").metadata.metadata[
        b"nerscore.vocab.labels"])
    assert vocab == ["B-PER", "I-PER", "O", "B-LOC", "B-MISC"]
    assert res.notes() == ("1 tag of the label vocabulary that no token has kept as it is: the "
                           "spelling of the input tags cannot read it ('B-MISC').",)


def test_spans_are_written_as_tags_in_the_output_spelling(tmp_path):
    src = write(tmp_path / "a.jsonl", '{"id": "d", "text": "Anna left", "spans": [[0, 4, "PER"]]}\n')
    nerscore.convert_file(src, tmp_path / "b.conll", to_suffix=True, to_delimiter="_",
                          to_outside="NONE")
    assert (tmp_path / "b.conll").read_text() == "Anna PER_B\nleft NONE\n\n"


@pytest.mark.parametrize("from_scheme", [None, "IOB2"])
def test_the_same_spelling_on_both_sides_gives_the_same_bytes(tmp_path, from_scheme):
    src = write(tmp_path / "a.conll", UNDERSCORED)
    spelling = {"delimiter": "_", "outside": "OUT", "suffix": False}
    same = {f"to_{k}": v for k, v in spelling.items()}
    nerscore.convert_file(src, tmp_path / "b.conll", from_scheme=from_scheme, **spelling, **same)
    assert (tmp_path / "b.conll").read_bytes() == src.read_bytes()
    # and there and back again
    nerscore.convert_file(src, tmp_path / "c.conll", from_scheme=from_scheme, **spelling,
                          to_suffix=True, to_delimiter="|", to_outside="O")
    assert labels(tmp_path / "c.conll")[0] == ["PER|B", "PER|I", "O", "LOC|B"]
    nerscore.convert_file(tmp_path / "c.conll", tmp_path / "d.conll", from_scheme=from_scheme,
                          suffix=True, delimiter="|", **same)
    assert (tmp_path / "d.conll").read_bytes() == src.read_bytes()


@pytest.mark.parametrize(("src", "dst", "kwargs", "message"), [
    ("a.conll", "b.jsonl", {"from_scheme": "IOB2", "to_delimiter": "_"},
     "to_delimiter='_' spells the output tags; {dst} gets spans: leave it out."),
    ("a.jsonl", "b.jsonl", {"to_outside": "O"}, "to_outside='O' spells the output tags;"),
    ("a.jsonl", "b.parquet", {"to_suffix": False}, "to_suffix=False spells the output tags; "
     "{dst} gets spans"),
    ("a.jsonl", "b.conll", {"delimiter": "_", "to_delimiter": "|"},
     "delimiter='_' spells the input tags, and the output tags unless they have their own "
     "spelling (to_delimiter); {src} holds spans and the output tags have their own spelling: "
     "leave it out."),
    ("a.conll", "b.conll", {"to_delimiter": ""},
     "Expected `to_delimiter` to be a non-empty str or None; got ''."),
    ("a.conll", "b.conll", {"to_suffix": "yes"},
     "Expected `to_suffix` to be a bool or None; got 'yes'."),
    # the input spelling is checked before what it applies to
    ("a.conll", "b.conll", {"delimiter": None}, "Expected `delimiter` to be a non-empty str; "
     "got None."),
    ("a.conll", "b.conll", {"suffix": "x"}, "Expected `suffix` to be a bool; got 'x'."),
])
def test_a_spelling_that_applies_to_nothing_is_refused(tmp_path, src, dst, kwargs, message):
    write(tmp_path / "a.conll", "Anna B-PER\n")
    write(tmp_path / "a.jsonl", '{"id": "d", "text": "Anna", "spans": []}\n')
    src, dst = tmp_path / src, tmp_path / dst
    with pytest.raises(OptionError) as info:
        nerscore.convert_file(src, dst, **kwargs)
    assert message.format(src=src, dst=dst) in str(info.value)
    assert info.value.option in nerscore.io.convert.CONVERSION_OPTIONS
    assert not dst.exists()


@pytest.mark.parametrize("from_scheme", [None, "IOB2"])
def test_a_tag_the_input_spelling_cannot_read_is_located(tmp_path, from_scheme):
    src = write(tmp_path / "a.conll", "Anna B_PER\nleft OUT\n\nBo B-PER\n")
    with pytest.raises(InvalidTagError) as info:
        nerscore.convert_file(src, tmp_path / "b.conll", from_scheme=from_scheme, delimiter="_",
                              outside="OUT", to_delimiter="-", to_outside="O")
    assert (info.value.source, info.value.line, info.value.tag) == (str(src), 4, "B-PER")
    assert str(info.value).startswith("Invalid tag 'B-PER' at token 0 ('Bo') of sentence ")
    assert "expected the outside tag or PREFIX_TYPE with a prefix in B, " in str(info.value)
    assert not (tmp_path / "b.conll").exists()


@pytest.mark.parametrize(("kwargs", "option", "message"), [
    ({"from_scheme": "IOB2", "outside": "B-PER"}, "outside",
     "outside='B-PER' is spelled as an entity tag (prefix 'B', type 'PER'): the tags would not "
     "say whether a token is outside every entity or in one. Give an outside tag that no entity "
     "tag spells, e.g. outside='O'."),
    ({"to_outside": "I-LOC"}, "to_outside", "to_outside='I-LOC' is spelled as an entity tag "
     "(prefix 'I', type 'LOC'):"),
    ({"to_outside": "B"}, "to_outside", "to_outside='B' is spelled as an entity tag (the bare "
     "prefix 'B'):"),
    ({"from_scheme": "IOB2", "suffix": True, "outside": "PER-B"}, "outside",
     "outside='PER-B' is spelled as an entity tag (prefix 'B', type 'PER')"),
    # an outside tag that is no tag in the input's spelling, and one in the output's
    ({"from_scheme": "IOB2", "outside": "B_X", "to_delimiter": "_"}, "to_outside",
     "outside='B_X', the outside tag of the output too, is spelled as an entity tag (prefix 'B', "
     "type 'X'): the tags would not say whether a token is outside every entity or in one. Give "
     "an outside tag that no entity tag spells, e.g. to_outside='O'."),
])
def test_an_outside_tag_spelled_as_an_entity_tag_is_refused(tmp_path, kwargs, option, message):
    src = write(tmp_path / "a.conll", "Anna B-PER\nleft O\n")
    with pytest.raises(OptionError) as info:
        nerscore.convert_file(src, tmp_path / "b.conll", **kwargs)
    assert message in str(info.value)
    assert info.value.option == option
    assert option in nerscore.io.convert.CONVERSION_OPTIONS
    assert not (tmp_path / "b.conll").exists()


@pytest.mark.parametrize(("kwargs", "option", "message"), [
    ({"to_delimiter": "B"}, "to_delimiter", "to_delimiter='B' is made of the prefix letter 'B': "
     "the tag 'BBTYPE' would split inside its prefix, not read back as prefix 'B', type 'TYPE'. "
     "Give a delimiter of other characters, e.g. to_delimiter='-'."),
    ({"to_delimiter": "II", "to_suffix": True}, "to_delimiter",
     "to_delimiter='II' is made of the prefix letter 'I': the tag 'TYPEIII' would split "),
    ({"from_scheme": "IOB2", "delimiter": "B"}, "delimiter", "delimiter='B' is made of the "
     "prefix letter 'B'"),
])
def test_a_delimiter_made_of_a_prefix_letter_is_refused(tmp_path, kwargs, option, message):
    src = write(tmp_path / "a.conll", "Anna B-PER\nleft O\n")
    with pytest.raises(OptionError) as info:
        nerscore.convert_file(src, tmp_path / "b.conll", **kwargs)
    assert message in str(info.value)
    assert info.value.option == option
    assert option in nerscore.io.convert.CONVERSION_OPTIONS
    assert not (tmp_path / "b.conll").exists()


@pytest.mark.parametrize("delimiter", ["BX", "XB", "O", "::"])
def test_a_delimiter_holding_a_prefix_letter_among_others_reads_back(tmp_path, delimiter):
    src = write(tmp_path / "a.conll", "Anna B-PER\nSmith I-PER\nleft O\n")
    nerscore.convert_file(src, tmp_path / "b.conll", to_delimiter=delimiter)
    nerscore.convert_file(tmp_path / "b.conll", tmp_path / "c.conll", delimiter=delimiter,
                          to_delimiter="-")
    assert (tmp_path / "c.conll").read_text() == "Anna B-PER\nSmith I-PER\nleft O\n"


@pytest.mark.parametrize("outside", ["O", "NONE", "B-", "X-PER", "OUT_B"])
def test_an_outside_tag_that_no_entity_tag_spells_is_taken(tmp_path, outside):
    src = write(tmp_path / "a.conll", f"Anna B-PER\nleft {outside}\n")
    nerscore.convert_file(src, tmp_path / "b.conll", from_scheme="IOB2", outside=outside,
                          to_outside="O")
    assert (tmp_path / "b.conll").read_text() == "Anna B-PER\nleft O\n"
