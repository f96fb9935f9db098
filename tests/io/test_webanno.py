"""WebAnno TSV 3: layers chosen by name, [n] ids, stacked annotations, UTF-16 offsets."""

from __future__ import annotations

import shutil

import pytest

from nerscore.errors import FormatError, OptionError
from nerscore.io.webanno import NAMED_ENTITY, read_webanno
from tests.paths import DATA

NEWS = DATA / "webanno" / "news.tsv"
HEAD = "#FORMAT=WebAnno TSV 3.3\n#T_SP=webanno.custom.Entity|label\n\n\n"


def write(tmp_path, body, head=HEAD, name="doc.tsv"):
    path = tmp_path / name
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(head + body, encoding="utf-8")
    return path


def test_multi_token_stacked_and_valueless_annotations():
    data = read_webanno(NEWS)
    doc = data.documents[0]
    assert doc.id == "news"
    assert doc.text == "Anna Smith flew to Berlin. \U0001F600 ACME Paris opened an office."
    assert [(e.start, e.end, e.label) for e in doc.spans] == [
        (0, 10, "PER"), (19, 25, "LOC"), (29, 33, "ORG"), (29, 39, "ORG"), (34, 39, "LOC")]
    assert (data.layer, data.feature) == (NAMED_ENTITY, "value")
    assert data.counts == {"no_value": 1, "stacked": 2, "utf16": 3}
    assert len(data.notes()) == 3


def test_the_layer_and_feature_are_chosen_by_name():
    pos = read_webanno(NEWS, layer="de.tudarmstadt.ukp.dkpro.core.api.lexmorph.type.pos.POS",
                       feature="coarseValue")
    assert [e.label for e in pos.documents[0].spans][:3] == ["PROPN", "PROPN", "VERB"]
    with pytest.raises(OptionError, match=r"has no span layer 'Entity'; its span layers are "
                                          r"'de\.tudarmstadt.*POS', '.*NamedEntity'\. Choose "
                                          r"one with layer=NAME \(--layer NAME\)"):
        read_webanno(NEWS, layer="Entity")
    with pytest.raises(OptionError, match="layer 'de.tudarmstadt.ukp.dkpro.core.api.lexmorph"
                                          r".type.pos.POS' has the features 'PosValue', "
                                          r"'coarseValue'; choose the label with feature=NAME"):
        read_webanno(NEWS, layer="POS")
    with pytest.raises(OptionError, match="has no feature 'label'; its features are "
                                          "'identifier', 'value'"):
        read_webanno(NEWS, feature="label")


def test_a_layer_of_one_feature_and_sub_token_rows(tmp_path):
    path = write(tmp_path, "#Text=New York-based firms\n1-1\t0-3\tNew\tLOC[1]\n"
                           "1-2\t4-14\tYork-based\t_\n1-2.1\t4-8\tYork\tLOC[1]\n"
                           "1-3\t15-20\tfirms\tO\\_RG\t\n")
    data = read_webanno(path, layer="Entity")
    assert data.feature == "label"
    assert [(e.start, e.end, e.label) for e in data.documents[0].spans] == [
        (0, 8, "LOC"), (15, 20, "O_RG")]
    assert data.documents[0].span_texts() == ["New York", "firms"]


def test_the_text_between_sentences_is_read_as_spaces_and_multi_line_sentences(tmp_path):
    path = write(tmp_path, "#Text=Hi Bob\n1-1\t0-2\tHi\t_\n1-2\t3-6\tBob\tPER\n\n"
                           "#Text=Ann\n#Text=left\n2-1\t9-12\tAnn\tPER\n2-2\t13-17\tleft\t_\n")
    doc = read_webanno(path, layer="Entity").documents[0]
    assert doc.text == "Hi Bob   Ann\nleft"
    assert doc.span_texts() == ["Bob", "Ann"]


def test_one_file_per_annotator_in_a_project_export(tmp_path):
    folder = tmp_path / "annotation" / "news.txt"
    folder.mkdir(parents=True)
    for user in ("anna", "bob"):
        shutil.copy(NEWS, folder / f"{user}.tsv")
    docs = read_webanno(tmp_path, annotator="bob").documents
    assert [d.id for d in docs] == ["annotation/news.txt"]
    assert [d.id for d in read_webanno(tmp_path).documents] == [
        "annotation/news.txt/anna", "annotation/news.txt/bob"]
    with pytest.raises(FormatError, match=r"no eve\.tsv file in the folder"):
        read_webanno(tmp_path, annotator="eve")


@pytest.mark.parametrize(("head", "body", "message"), [
    ("1-1\t0-2\tHi\n", "", r"line 1: expected '#FORMAT=WebAnno TSV 3.x'"),
    (HEAD, "#Text=Hi\n1-1 0-2 Hi _\n", r"line 6: expected 'SENT-TOKEN<TAB>BEGIN-END<TAB>TOKEN"),
    (HEAD, "#Text=Hi\n1-1\t0-2\tHo\t_\n", r"line 6: the token 'Ho' at 0-2 is 'Hi' in the "
                                          r"sentence text"),
    (HEAD, "#Text=\U0001F600\n1-1\t0-1\tx\t_\n", r"line 6: offset 1 falls inside a character"),
])
def test_malformed_files_are_errors_naming_the_line(tmp_path, head, body, message):
    with pytest.raises(FormatError, match=message):
        read_webanno(write(tmp_path, body, head), layer="Entity")
