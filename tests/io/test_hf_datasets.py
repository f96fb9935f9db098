"""Hugging Face datasets on disk (``save_to_disk`` folders, the hub's Parquet layout)."""

from __future__ import annotations

import json
import shutil

import pytest

import nerscore
from nerscore.cli import main
from nerscore.errors import FormatError
from nerscore.io.formats import get_format, guess_format
from nerscore.io.hf_datasets import hf_splits, iter_hf_tags, read_hf_dataset
from tests.paths import DATA, EXAMPLES

pytest.importorskip("pyarrow")

HF = DATA / "hf"
GOLD_DD = HF / "conll2000"
PRED_HUB = HF / "conll2000_pred"
CONLL_GOLD = EXAMPLES / "conll2000" / "gold.conll"
CONLL_PRED = EXAMPLES / "conll2000" / "pred.conll"


def _conll(path):
    read = get_format("conll").load(path)
    return read.data.to_lists(), [list(t) for t in read.texts()]


def test_every_layout_reads_the_tags_and_tokens_of_the_conll_file():
    tags, tokens = _conll(CONLL_GOLD)
    for path, split in ((GOLD_DD, "test"), (GOLD_DD / "test", None),
                        (GOLD_DD / "test" / "data-00000-of-00001.arrow", None)):
        got = read_hf_dataset(path, split=split)
        assert got.to_lists() == tags, path
        assert [list(t) for t in got.sentence_tokens()] == tokens, path
    pred_tags, pred_tokens = _conll(CONLL_PRED)
    for path in (PRED_HUB, PRED_HUB / "data" / "test-00000-of-00001.parquet"):
        got = read_hf_dataset(path, split="test" if path == PRED_HUB else None)
        assert got.to_lists() == pred_tags  # the ClassLabel names come in another order
        assert [list(t) for t in got.sentence_tokens()] == pred_tokens
    assert read_hf_dataset(GOLD_DD, split="train").to_lists() == tags[:10]


def test_chunks_are_named_and_numbered_as_the_whole_split():
    """Messages on a chunk name the split's folder and its sentence, as on the whole split."""
    whole = read_hf_dataset(GOLD_DD, split="test", tokens_column=None)
    chunks = list(iter_hf_tags(GOLD_DD, split="test", tokens_column=None, chunk_size=7))
    assert [c.first for c in chunks] == list(range(0, whole.n_sequences, 7))
    assert {c.source for c in chunks} == {whole.source} == {str(GOLD_DD)}
    last = chunks[-1]
    assert last.describe(len(last) - 1) == whole.describe(len(whole) - 1)


def test_splits_of_each_layout():
    assert list(hf_splits(GOLD_DD)) == ["train", "test"]
    assert list(hf_splits(PRED_HUB)) == ["test"]
    assert list(hf_splits(GOLD_DD / "test")) == [""]


def test_the_format_is_found_from_the_folder():
    assert guess_format(GOLD_DD).name == "hf"
    assert guess_format(GOLD_DD / "test").name == "hf"
    assert guess_format(PRED_HUB).name == "hf"
    assert guess_format(GOLD_DD / "test" / "data-00000-of-00001.arrow").name == "hf"
    assert guess_format(DATA / "brat" / "conll2002").name == "brat"


def test_scores_equal_those_of_the_conll_files_streamed_or_not():
    want = nerscore.score_files(CONLL_GOLD, CONLL_PRED).report
    for chunk in (7, 10_000):
        got = nerscore.score_files(GOLD_DD, PRED_HUB, chunk_size=chunk,
                                   gold_options={"split": "test"},
                                   pred_options={"split": "test"})
        assert got.streamed
        assert got.report.counts == want.counts
        assert got.report.accuracy == want.accuracy


def test_command_line_with_split(capsys, tmp_path):
    assert main(["score", str(GOLD_DD), str(PRED_HUB), "--split", "test", "--format",
                 "json"]) == 0
    got = json.loads(capsys.readouterr().out)
    assert main(["score", str(CONLL_GOLD), str(CONLL_PRED), "--format", "json"]) == 0
    want = json.loads(capsys.readouterr().out)
    assert got["overall"] == want["overall"]
    assert main(["score", str(GOLD_DD), str(PRED_HUB)]) == 1
    assert ("holds the splits 'train', 'test': choose one (split=NAME; --split NAME" in
            capsys.readouterr().err)
    assert main(["score", str(CONLL_GOLD), str(CONLL_PRED), "--split", "test"]) == 2
    assert "--split applies to no input" in capsys.readouterr().err
    out = tmp_path / "gold.conll"
    assert main(["convert", str(GOLD_DD), str(out), "--split", "train"]) == 0
    assert get_format("conll").load(out).data.to_lists() == _conll(CONLL_GOLD)[0][:10]


def test_errors_say_what_and_where(tmp_path):
    with pytest.raises(FormatError, match=r"has no split 'dev'; its splits are 'train', 'test'"):
        read_hf_dataset(GOLD_DD, split="dev")
    with pytest.raises(FormatError, match=r"not a Hugging Face dataset on disk"):
        read_hf_dataset(tmp_path)
    with pytest.raises(FormatError, match=r"no column 'labels' in the dataset's features "
                                          r"\('id', 'tokens', 'ner_tags'\)"):
        read_hf_dataset(GOLD_DD, split="test", column="labels")
    with pytest.raises(FormatError, match=r"the column .id. is not a sequence of "
                                          r"ClassLabel ids or strings"):
        list(iter_hf_tags(GOLD_DD, split="test", column="id"))
    broken = tmp_path / "d"
    shutil.copytree(GOLD_DD / "test", broken)
    info = json.loads((broken / "dataset_info.json").read_text())
    info["features"]["ner_tags"]["feature"] = {"dtype": "int64", "_type": "Value"}
    (broken / "dataset_info.json").write_text(json.dumps(info))
    with pytest.raises(FormatError, match=r"nerscore reads the tag names from a ClassLabel"):
        read_hf_dataset(broken)


def test_the_shipped_fixtures_are_what_datasets_writes_and_reads(tmp_path):
    datasets = pytest.importorskip("datasets")
    from tests.io.hf_fixtures import build

    build(tmp_path)
    for split in ("train", "test"):
        assert (read_hf_dataset(tmp_path / "conll2000", split=split).to_lists()
                == read_hf_dataset(GOLD_DD, split=split).to_lists())
    # datasets' own reading of the shipped folder: the same tag names, sentence by sentence
    ds = datasets.load_from_disk(str(GOLD_DD))["test"]
    names = ds.features["ner_tags"].feature.names
    theirs = [[names[i] for i in row] for row in ds["ner_tags"]]
    assert read_hf_dataset(GOLD_DD, split="test").to_lists() == theirs
    hub = datasets.load_dataset("parquet", data_dir=str(PRED_HUB / "data"), split="test",
                                cache_dir=str(tmp_path / "cache"))
    names = hub.features["ner_tags"].feature.names
    theirs = [[names[i] for i in row] for row in hub["ner_tags"]]
    assert read_hf_dataset(PRED_HUB).to_lists() == theirs


def test_a_file_that_is_not_a_dataset_file_is_named_with_how_to_read_it(tmp_path, capsys):
    with pytest.raises(FormatError, match=r"gold\.conll: not a Hugging Face dataset file "
                                          r"\(pyarrow: .*\); a dataset on disk is") as info:
        read_hf_dataset(CONLL_GOLD)
    assert info.value.source == str(CONLL_GOLD)
    hub = tmp_path / "hub"
    shutil.copytree(PRED_HUB, hub)
    shard = hub / "data" / "test-00000-of-00001.parquet"
    shard.write_bytes(b"PAR1" + shard.read_bytes()[-8:])
    with pytest.raises(FormatError, match=r"test-00000-of-00001\.parquet: not a Hugging Face "
                                          r"dataset file \(pyarrow: "):
        read_hf_dataset(hub)
    assert main(["score", str(CONLL_GOLD), str(CONLL_PRED), "--gold-format", "hf"]) == 1
    err = capsys.readouterr().err
    assert err.startswith(f"nerscore score: error: {CONLL_GOLD}: not a Hugging Face dataset "
                          "file (pyarrow: ")
    assert "Read it in its own format" in err


def test_an_arrow_file_in_the_ipc_file_format_is_read(tmp_path):
    import pyarrow as pa

    stream = GOLD_DD / "test" / "data-00000-of-00001.arrow"
    with pa.memory_map(str(stream)) as source:
        table = pa.ipc.open_stream(source).read_all()
    info = json.loads((GOLD_DD / "test" / "dataset_info.json").read_text())
    meta = {b"huggingface": json.dumps({"info": {"features": info["features"]}}).encode()}
    table = table.replace_schema_metadata(meta)
    path = tmp_path / "test.arrow"
    with pa.OSFile(str(path), "wb") as sink, pa.ipc.new_file(sink, table.schema) as writer:
        writer.write_table(table)
    assert read_hf_dataset(path).to_lists() == read_hf_dataset(GOLD_DD, split="test").to_lists()


DEEP = "[" * 100_000 + "]" * 100_000


@pytest.mark.parametrize(("content", "message"), [
    ('{"features": {},\n "x" 1}', ", line 2: malformed JSON (Expecting ':' delimiter at column "
                                  "6)."),
    ('{"features": {},\n "x": ' + DEEP + "}", ", line 2: JSON nested too deeply to read (100001 "
                                             "nested arrays or objects"),
    ("[1]", ": expected a JSON object; got list."),
])
def test_a_dataset_info_that_is_not_a_json_object_is_located(tmp_path, content, message):
    broken = tmp_path / "d"
    shutil.copytree(GOLD_DD / "test", broken)
    (broken / "dataset_info.json").write_text(content)
    with pytest.raises(FormatError) as info:
        read_hf_dataset(broken)
    assert str(info.value).startswith(f"{broken / 'dataset_info.json'}{message}")


def test_a_state_json_without_file_names_is_an_error(tmp_path):
    broken = tmp_path / "d"
    shutil.copytree(GOLD_DD / "test", broken)
    (broken / "state.json").write_text('{"_data_files": [1]}')
    with pytest.raises(FormatError, match=r"state\.json: expected a list of objects with a "
                                          r"\"filename\" under '_data_files'\."):
        read_hf_dataset(broken)


@pytest.mark.parametrize(("meta", "message"), [
    (b'{"info": {"features": }}', ": malformed JSON (Expecting value at line 1, column 23)."),
    (b'{"info":\n ' + DEEP.encode() + b"}", " (line 2): JSON nested too deeply to read (100001 "
                                            "nested arrays or objects"),
    (b"[]", ": expected the 'huggingface' metadata to be a JSON object"),
])
def test_huggingface_metadata_that_cannot_be_read_is_located(tmp_path, meta, message):
    import pyarrow as pa

    stream = GOLD_DD / "test" / "data-00000-of-00001.arrow"
    with pa.memory_map(str(stream)) as source:
        table = pa.ipc.open_stream(source).read_all()
    table = table.replace_schema_metadata({b"huggingface": meta})
    path = tmp_path / "test.arrow"
    with pa.OSFile(str(path), "wb") as sink, pa.ipc.new_file(sink, table.schema) as writer:
        writer.write_table(table)
    with pytest.raises(FormatError) as info:
        read_hf_dataset(path)
    where = "" if meta == b"[]" else ", metadata 'huggingface'"
    assert str(info.value).startswith(f"{path}{where}{message}")
