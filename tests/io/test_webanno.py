"""WebAnno TSV 3: layers chosen by name, [n] ids, stacked annotations, UTF-16 offsets."""

from __future__ import annotations

import shutil

import pytest

from nerscore.errors import AnnotatorChoiceError, FormatError, OptionError
from nerscore.io._webanno_export import layout_problem
from nerscore.io.formats import get_format, guess_format
from nerscore.io.webanno import NAMED_ENTITY, read_webanno, read_webanno_annotators
from tests.io.webanno_fixtures import ANNOTATORS, tsv, write_export
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


@pytest.mark.parametrize(("row", "count"), [
    ("1-1\t0-3\tAnn\tPER\t", {}),  # a tab may end the line
    ("1-1\t0-3\tAnn\tPER", {}),
    ("1-1\t0-3\tAnn\tPER\tX", {"long": 1}),
    ("1-1\t0-3\tAnn", {"short": 1}),
])
def test_token_lines_of_other_columns_than_the_header_declares_are_counted(tmp_path, row, count):
    data = read_webanno(write(tmp_path, f"#Text=Ann Lee\n{row}\n1-2\t4-7\tLee\t_\n"),
                        layer="Entity")
    assert data.counts == count
    labels = [e.label for e in data.documents[0].spans]
    assert labels == ([] if "short" in count else ["PER"])
    notes = [n for n in data.notes() if "annotation columns" in n]
    if "long" in count:
        assert notes == [f"{tmp_path / 'doc.tsv'}: 1 token line has more annotation columns than "
                         "the header's layers declare: the extra ones are not read."]
    elif "short" in count:
        assert notes == [f"{tmp_path / 'doc.tsv'}: 1 token line has fewer annotation columns "
                         "than the header's layers declare: the missing ones are read as empty "
                         "('_')."]
    else:
        assert notes == []


def test_an_annotator_given_for_one_file_is_refused_not_ignored():
    with pytest.raises(OptionError, match=r"annotator='anna' chooses the files of an annotator "
                                          r"in a folder; .*news\.tsv is one file: leave it out"):
        read_webanno(NEWS, annotator="anna")


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
    assert [d.id for d in docs] == ["news.txt"]  # named by the document, as every annotator's
    with pytest.raises(AnnotatorChoiceError):  # not two documents 'news.txt/anna' and '/bob'
        read_webanno(tmp_path)
    with pytest.raises(OptionError, match=r"no annotator 'eve' in the project export; its "
                                          r"annotators are 'anna', 'bob'\.$") as exc:
        read_webanno(tmp_path, annotator="eve")
    assert exc.value.option == "annotator"


def test_a_project_export_of_several_annotators_read_without_one_is_an_error(tmp_path):
    export = write_export(tmp_path / "export")
    with pytest.raises(AnnotatorChoiceError) as exc:
        read_webanno(export)
    assert str(exc.value) == (
        f"{export} is an INCEpTION project export holding annotations of 4 annotators ('anna', "
        "'ben', 'cai', 'CURATION_USER'); choose one with annotator=NAME.")
    assert exc.value.source == str(export)
    assert exc.value.annotators == ("anna", "ben", "cai", "CURATION_USER")
    with pytest.raises(AnnotatorChoiceError):  # its annotation/ folder alike
        read_webanno(export / "annotation")


def test_an_annotator_of_a_project_export_is_read_by_document_name(tmp_path):
    export = write_export(tmp_path / "export")
    ben = read_webanno(export, annotator="ben")
    # news2.tsv is a folder (a document imported as TSV), source/ is never read
    assert [(d.id, d.span_texts()) for d in ben.documents] == [
        ("news1.txt", ["Anna", "Paris"]), ("news2.tsv", ["Cy", "Rome"])]
    assert [e.label for e in ben.documents[1].spans] == ["PER", "ORG"]
    assert (ben.annotator, ben.notes()) == ("ben", ())
    for who in ("cai", "CURATION_USER"):
        data = read_webanno(export, annotator=who)
        assert [(d.id, d.span_texts()) for d in data.documents] == [
            ("news1.txt", ["Anna", "Bob", "Paris"])]
        assert data.notes() == (f"{export}: 1 document(s) of the export have no file of "
                                f"{who!r} and are not read: 'news2.tsv'.",)
    curated = read_webanno(export / "curation")  # the curation folder alone: one annotator
    assert [d.id for d in curated.documents] == ["news1.txt"]
    assert curated.annotator == "CURATION_USER"


def test_a_project_export_of_one_annotator_is_read_with_a_note(tmp_path):
    export = write_export(tmp_path / "export", {"anna": ANNOTATORS["anna"]}, {})
    data = read_webanno(export)
    assert [(d.id, d.span_texts()) for d in data.documents] == [
        ("news1.txt", ["Anna", "Bob", "Paris"]), ("news2.tsv", ["Cy", "Rome"])]
    assert data.annotator == "anna"
    assert data.notes() == (
        f"{export}: an INCEpTION project export of one annotator: read the annotations of "
        "'anna' (annotation/DOC/anna.tsv), each document named by its folder DOC.",)
    alone = read_webanno(export / "annotation")
    assert [d.id for d in alone.documents] == ["news1.txt", "news2.tsv"]
    assert "(DOC/anna.tsv)" in alone.notes()[0]


@pytest.mark.parametrize(("layout", "fmt", "ids"), [
    # a corpus in folders: one document per file, named by its path, as ever
    (["train/doc1.tsv", "dev/doc2.tsv"], "brat", ["dev/doc2", "train/doc1"]),
    # a .tsv file beside annotation/ (not in source/): a folder of documents
    (["annotation/a.txt/anna.tsv", "notes.tsv"], "brat", ["annotation/a.txt/anna", "notes"]),
    # a file deeper than annotation/DOC/: the same
    (["annotation/a.txt/x/anna.tsv"], "brat", ["annotation/a.txt/x/anna"]),
    # an export: its documents are the DOC folders
    (["annotation/a.txt/anna.tsv", "source/a.tsv"], "webanno", ["a.txt"]),
])
def test_a_project_export_is_told_from_a_corpus_in_folders_by_its_layout(tmp_path, layout, fmt,
                                                                          ids):
    for name in layout:
        write(tmp_path, "#Text=Hi\n1-1\t0-2\tHi\t_\n", name=name)
    assert guess_format(tmp_path).name == fmt
    assert [d.id for d in read_webanno(tmp_path, layer="Entity").documents] == ids


def test_an_export_without_webanno_tsv_files_is_an_error(tmp_path):
    (tmp_path / "annotation" / "a.txt").mkdir(parents=True)
    (tmp_path / "annotation" / "a.txt" / "anna.zip").write_bytes(b"")  # exported as XMI
    write(tmp_path, "#Text=Hi\n1-1\t0-2\tHi\t_\n", name="source/a.tsv")
    with pytest.raises(FormatError, match=r"is an INCEpTION project export without WebAnno TSV "
                                          r"files .* export the project in the format 'WebAnno "
                                          r"TSV v3'"):
        read_webanno(tmp_path, layer="Entity")


def test_an_export_in_another_format_names_what_its_document_folders_hold(tmp_path):
    for user in ("anna", "ben"):
        (tmp_path / "annotation" / "a.txt").mkdir(parents=True, exist_ok=True)
        (tmp_path / "annotation" / "a.txt" / f"{user}.xmi").write_text("<xmi/>")
    (tmp_path / "curation" / "a.txt").mkdir(parents=True)
    (tmp_path / "curation" / "a.txt" / "CURATION_USER.zip").write_bytes(b"")
    message = (f"{tmp_path} is an INCEpTION project export without WebAnno TSV files (no "
               "annotation/DOC/USER.tsv nor curation/DOC/USER.tsv; its document folders hold 2 "
               ".xmi files and 1 .zip file, which nerscore does not read: "
               "'annotation/a.txt/anna.xmi', 'annotation/a.txt/ben.xmi', "
               "'curation/a.txt/CURATION_USER.zip'); export the project in the format 'WebAnno "
               "TSV v3'.")
    for read in (read_webanno, read_webanno_annotators,
                 lambda p: get_format("webanno").annotators(str(p), {})):
        with pytest.raises(FormatError) as exc:
            read(tmp_path)
        assert str(exc.value) == message
    assert layout_problem(tmp_path) == message


def _brat_sets(folder):
    """``annotation/SET/doc.ann`` and ``doc.txt``: a BRAT folder shaped as an export."""
    for user, label in (("set1", "PER"), ("set2", "LOC")):
        (folder / "annotation" / user).mkdir(parents=True)
        (folder / "annotation" / user / "doc.txt").write_text("Anna in Paris", encoding="utf-8")
        (folder / "annotation" / user / "doc.ann").write_text(f"T1\t{label} 0 4\tAnna\n",
                                                            encoding="utf-8")
    return folder


@pytest.mark.parametrize("root", ["", "annotation"])
def test_document_folders_of_files_of_another_format_nerscore_reads_are_no_export(tmp_path,
                                                                                   root):
    folder = _brat_sets(tmp_path / "brat") / root
    assert layout_problem(folder) is None
    assert guess_format(folder).name == "brat"
    with pytest.raises(FormatError, match=r"no \*\.tsv file in the folder or its subfolders"):
        read_webanno(folder)
    with pytest.raises(FormatError, match="is not an INCEpTION project export: it holds no "
                                          "folder annotation/"):
        read_webanno_annotators(folder)


@pytest.mark.parametrize("mark", ["exportedproject1.json", "source/doc.txt"])
@pytest.mark.parametrize("root", ["", "annotation"])
def test_an_export_in_a_format_nerscore_reads_elsewhere_is_still_one(tmp_path, mark, root):
    # INCEpTION's marks beside annotation/: an export, of files not in WebAnno TSV
    export = _brat_sets(tmp_path / "export")
    (export / mark).parent.mkdir(parents=True, exist_ok=True)
    (export / mark).write_text("{}", encoding="utf-8")
    folder = export / root
    prefix = "annotation/" if not root else ""
    message = (f"{folder} is an INCEpTION project export without WebAnno TSV files (no "
               "annotation/DOC/USER.tsv nor curation/DOC/USER.tsv; its document folders hold 2 "
               ".ann files and 2 .txt files, which nerscore does not read as an export's "
               f"annotations: '{prefix}set1/doc.ann', '{prefix}set1/doc.txt', "
               f"'{prefix}set2/doc.ann', '{prefix}set2/doc.txt'); export the project in the "
               "format 'WebAnno TSV v3'.")
    assert layout_problem(folder) == message
    with pytest.raises(FormatError) as exc:
        read_webanno_annotators(folder)
    assert str(exc.value) == message


def test_files_nerscore_reads_beside_ones_it_does_not_are_an_export_in_another_format(
        tmp_path):
    _brat_sets(tmp_path)
    (tmp_path / "annotation" / "set1" / "anna.xmi").write_text("<xmi/>", encoding="utf-8")
    assert layout_problem(tmp_path).startswith(
        f"{tmp_path} is an INCEpTION project export without WebAnno TSV files (no "
        "annotation/DOC/USER.tsv nor curation/DOC/USER.tsv; its document folders hold 2 .ann "
        "files, 2 .txt files and 1 .xmi file, which nerscore does not read: ")


@pytest.mark.parametrize(("root", "stray", "where"), [
    ("", "annotation/a.txt/sub/x.tsv",
     "annotation/DOC/USER.tsv, curation/DOC/USER.tsv and source/"),
    ("annotation", "a.txt/sub/x.tsv", "annotation/DOC/USER.tsv"),
])
def test_a_tsv_file_that_breaks_an_export_s_layout_is_named(tmp_path, root, stray, where):
    export = write_export(tmp_path / "export")
    folder = export / root
    write(folder, "#Text=Hi\n1-1\t0-2\tHi\t_\n", name=stray)
    problem = (f"{folder} is laid out as an INCEpTION project export, but 1 .tsv file lies "
               f"outside {where}: {stray!r}, so it is not read as an export (whose every .tsv "
               "file is one annotator's file of one document). Move that file out of the folder "
               "(or remove it) to read the export's annotators.")
    assert layout_problem(folder) == problem
    with pytest.raises(FormatError) as exc:
        read_webanno_annotators(folder)
    assert str(exc.value) == problem
    # read whole, it is still a folder of documents (the rule): only the export readers refuse it
    assert guess_format(folder).name == "brat"
    assert layout_problem(export / "source") is None
    assert layout_problem(NEWS.parent) is None


def test_a_document_folder_without_a_tsv_file_is_noted(tmp_path):
    export = write_export(tmp_path / "export")
    for doc in ("news3.txt", "news4.txt"):
        (export / "annotation" / doc).mkdir()
    (export / "annotation" / "news4.txt" / "anna.xmi").write_text("<xmi/>")
    sets = read_webanno_annotators(export)
    assert sets.empty == ("news3.txt", "news4.txt")
    assert sets.notes()[1] == (f"{export}: 2 document folder(s) of annotation/ hold no .tsv "
                               "file, so no annotator's annotations of them are read: "
                               "'news3.txt', 'news4.txt'.")
    # one annotator's documents: those folders are among the documents it has no file of
    assert read_webanno(export, annotator="cai").notes() == (
        f"{export}: 3 document(s) of the export have no file of 'cai' and are not read: "
        "'news2.tsv', 'news3.txt', 'news4.txt'.",)
    # a curated document that no annotator has a file of is read with the curation
    write(export, tsv("Hi", "_"), head="", name="curation/news3.txt/CURATION_USER.tsv")
    with_curation = read_webanno_annotators(export, curation=True)
    assert with_curation.empty == ("news4.txt",)


def test_files_of_a_document_folder_that_are_not_tsv_are_noted(tmp_path):
    export = write_export(tmp_path / "export")
    (export / "annotation" / "news1.txt" / "cai.tsv").rename(
        export / "annotation" / "news1.txt" / "cai.xmi")
    sets = read_webanno_annotators(export)
    assert list(sets.documents) == ["anna", "ben"]
    assert sets.notes()[1] == (f"{export}: the document folders hold 1 .xmi file that is not "
                               "WebAnno TSV, so it is not read: 'annotation/news1.txt/cai.xmi'.")
    (export / "annotation" / "news2.tsv" / "notes.txt").write_text("x")
    assert read_webanno_annotators(export).notes()[1] == (
        f"{export}: the document folders hold 1 .xmi file and 1 .txt file that are not WebAnno "
        "TSV, so they are not read: 'annotation/news1.txt/cai.xmi', "
        "'annotation/news2.tsv/notes.txt'.")


def test_every_annotator_of_a_project_export(tmp_path):
    export = write_export(tmp_path / "export")
    sets = read_webanno_annotators(export)
    assert {who: [d.id for d in docs] for who, docs in sets.documents.items()} == {
        "anna": ["news1.txt", "news2.tsv"], "ben": ["news1.txt", "news2.tsv"],
        "cai": ["news1.txt"]}
    assert sets.curation == ("CURATION_USER",)
    assert sets.notes() == (f"{export}: the curated documents ('CURATION_USER', curation/DOC/"
                            "CURATION_USER.tsv) are left out: they are the adjudication, not an "
                            "annotator's.",)
    with_curation = read_webanno_annotators(export, curation=True)
    assert list(with_curation.documents) == ["anna", "ben", "cai", "CURATION_USER"]
    assert with_curation.notes() == ()
    assert list(read_webanno_annotators(export / "annotation").documents) == ["anna", "ben", "cai"]
    with pytest.raises(FormatError, match="is not an INCEpTION project export"):
        read_webanno_annotators(NEWS.parent)


@pytest.mark.parametrize("rows", [
    "1-1\t0-4\tAnna\tPER\n1-1\t0-4\tAnna\tPER\n1-2\t5-8\tmet\t_\n",  # read as two spans
    "1-1\t0-4\tAnna\tPER\n1-1\t5-8\tmet\tLOC\n",
])
def test_a_repeated_token_id_is_an_error_naming_file_line_and_id(tmp_path, rows):
    path = write(tmp_path, "#Text=Anna met\n" + rows)
    with pytest.raises(FormatError) as info:
        read_webanno(path, layer="Entity")
    assert str(info.value) == (
        f"{path}, line 7: token id '1-1' is repeated (first on line 6); each token has an id of "
        "its own (SENTENCE-TOKEN), so rows were copied or renumbered and the spans read from them "
        "could be wrong. Re-export the document from INCEpTION or WebAnno as 'WebAnno TSV v3'.")
    assert (info.value.source, info.value.line) == (str(path), 7)


@pytest.mark.parametrize(("head", "body", "message"), [
    ("1-1\t0-2\tHi\n", "", r"line 1: expected '#FORMAT=WebAnno TSV 3.x'"),
    (HEAD, "#Text=Hi\n1-1 0-2 Hi _\n", r"line 6: expected 'SENT-TOKEN<TAB>BEGIN-END<TAB>TOKEN"),
    (HEAD, "#Text=Hi\n1-1\t0-2\tHo\t_\n", r"line 6: the token 'Ho' at 0-2 is 'Hi' in the "
                                          r"sentence text"),
    (HEAD, "#Text=\U0001F600\n1-1\t0-1\tx\t_\n", r"line 6: offset 1 falls inside a character"),
    (HEAD, "#Text=\U0001F600 Hi\n1-1\t0-2\t\U0001F600\t_\n1-2\t3-9\tHi\tPER\n",
     r"line 7: offset 9 lies beyond the text, which has 5 UTF-16 code units\.$"),
])
def test_malformed_files_are_errors_naming_the_line(tmp_path, head, body, message):
    with pytest.raises(FormatError, match=message):
        read_webanno(write(tmp_path, body, head), layer="Entity")
