"""Text files: the encodings files are written in, and decoding errors that name the file."""

from __future__ import annotations

import pytest

from nerscore.errors import FormatError, OptionError
from nerscore.io._textfile import check_not_wide, file_codec, read_text
from nerscore.io.conll import iter_conll, read_conll

TEXT = "Anna B-PER\nlebt O\n"


@pytest.mark.parametrize(("encoding", "codec"), [
    ("utf-8", "utf-8"), ("UTF8", "utf-8"), ("latin-1", "iso8859-1"), ("cp1252", "cp1252"),
    ("utf-16", "utf-16"), ("utf-16-le", "utf-16-le"), ("utf-7", "utf-7"),
])
def test_file_codec_accepts_text_file_encodings(encoding, codec):
    assert file_codec(encoding) == codec


@pytest.mark.parametrize(("encoding", "why"), [
    ("klingon", ""), ("rot13", ""), ("zlib", ""), (None, ""),
    ("idna", ", which encodes host names, not files"),
    ("punycode", ", which encodes host names, not files"),
    ("unicode_escape", ", which encodes Python string literals, not files"),
    ("raw_unicode_escape", ", which encodes Python string literals, not files"),
    ("undefined", ", which decodes nothing"),
])
def test_file_codec_refuses_other_codecs(encoding, why):
    with pytest.raises(OptionError) as info:
        file_codec(encoding)
    assert str(info.value) == ("Expected `encoding` to be a text encoding Python knows (e.g. "
                               f"utf-8, latin-1, cp1252); got {encoding!r}{why}.")
    assert isinstance(info.value, ValueError)


def test_read_text_refuses_codecs_of_host_names(tmp_path):
    path = tmp_path / "a.jsonl"
    path.write_text(TEXT)
    with pytest.raises(OptionError, match="got 'idna', which encodes host names"):
        read_text(path, encoding="idna")


def test_read_text_utf16_needs_a_byte_order_mark(tmp_path):
    path = tmp_path / "be.jsonl"
    path.write_bytes(TEXT.encode("utf-16-be"))
    with pytest.raises(FormatError) as info:
        read_text(path, encoding="utf-16")
    assert str(info.value) == (
        f"Cannot decode the file as utf-16 ({path}, line 1): UTF-16 stream does not start with "
        "BOM. Pass its encoding with the `encoding` option (--encoding on the command line), "
        "e.g. encoding='utf-16-le' or encoding='utf-16-be' for UTF-16 without a byte order mark.")
    assert (info.value.source, info.value.line) == (str(path), 1)
    assert read_text(path, encoding="utf-16-be") == TEXT
    path.write_bytes(TEXT.encode("utf-16"))  # with its byte order mark
    assert read_text(path, encoding="utf-16") == TEXT


def test_read_text_names_the_byte(tmp_path):
    path = tmp_path / "latin.jsonl"
    path.write_bytes("Zoë\n".encode("latin-1"))
    with pytest.raises(FormatError) as info:
        read_text(path)
    assert str(info.value) == (
        f"Cannot decode byte 0xeb as utf-8 ({path}, line 1): the file is in another encoding. "
        "Pass its encoding with the `encoding` option (--encoding on the command line), e.g. "
        "encoding='latin-1' or encoding='cp1252'.")


#: UTF-16-LE CoNLL text whose first line has U+010A (a 0x0a byte) and whose third has a lone
#: low surrogate (0xdc00), which no UTF-16 decoder takes.
WIDE_BAD = ("\u010a\u010a B-PER\nlebt O\n".encode("utf-16-le") + b"\x00\xdc"
            + " O\n".encode("utf-16-le"))


@pytest.mark.parametrize("block_size", [None, 5, 7, 64])
@pytest.mark.parametrize(("encoding", "bom"), [("utf-16-le", b""), ("utf-16", b"\xff\xfe")])
def test_a_utf16_decoding_error_names_its_line(tmp_path, encoding, bom, block_size):
    """Lines are counted in the text: a 0x0a byte is no newline in UTF-16, whose newline is two."""
    path = tmp_path / "gold.conll"
    path.write_bytes(bom + WIDE_BAD)
    def read():
        if block_size is None:
            return read_text(path, encoding=encoding)
        return list(iter_conll(path, encoding=encoding, block_size=block_size))

    with pytest.raises(FormatError) as info:
        read()
    assert (info.value.source, info.value.line) == (str(path), 3)
    assert f"as {encoding} ({path}, line 3): the file is in another encoding." in str(info.value)
    with pytest.raises(FormatError, match=r"line 3\)"):
        read_conll(path, encoding=encoding)


def test_a_utf8_sig_decoding_error_names_its_line_and_byte(tmp_path):
    """The byte order mark is no part of what the decoder reports its error in."""
    path = tmp_path / "gold.conll"
    path.write_bytes(b"\xef\xbb\xbfab\n\xff\n")
    with pytest.raises(FormatError) as info:
        read_text(path, encoding="utf-8-sig")
    assert str(info.value).startswith(f"Cannot decode byte 0xff as utf-8-sig ({path}, line 2):")


@pytest.mark.parametrize("codec", ["utf-16-le", "utf-16-be", "utf-32-le", "utf-32-be"])
def test_wide_text_read_as_utf8_names_its_encoding(tmp_path, codec):
    """UTF-16/32 without byte order mark is valid UTF-8 (zero bytes): refused, not read as tokens."""
    path = tmp_path / "gold.conll"
    path.write_bytes("Anna B-PER\nlebt O\n\n".encode(codec))
    with pytest.raises(FormatError) as info:
        read_text(path)
    assert str(info.value) == (
        f"Cannot read the file as utf-8 ({path}, line 1): it holds a zero byte beside each "
        f"character, as {codec[:6].upper()} text does. Pass its encoding with the `encoding` "
        f"option (--encoding on the command line), e.g. encoding='{codec}'.")
    assert (info.value.source, info.value.line) == (str(path), 1)
    assert read_text(path, encoding=codec) == "Anna B-PER\nlebt O\n\n"


def test_few_zero_bytes_are_read():
    check_not_wide(b"a\x00bc O\n" * 4, "x.conll", "utf-8")
    check_not_wide("Anna B-PER\n".encode("utf-16-le"), "x.conll", "latin-1")  # not read as UTF-8


@pytest.mark.parametrize("data", [
    b"\x00\x00ab" * 16,  # not where wide text has them
    b"\x7fELF\x02\x01\x01\x00" + bytes(8) + b"\x03\x00>\x00\x01\x00\x00\x00" * 8,  # a program
    "\u6771\u4eac\u5927\u962a\n".encode("utf-32-le") * 4,  # wide text, not of ASCII characters
], ids=["no-pattern", "program", "utf-32-cjk"])
def test_many_zero_bytes_are_not_read_as_text(data):
    with pytest.raises(FormatError) as info:
        check_not_wide(data, "x.conll", "utf-8")
    assert str(info.value).startswith("Cannot read the file as utf-8 (x.conll, line 1): ")
    assert "bytes are zero bytes, as in a binary file, not text. Give the annotations' text file (or, if it is text, its encoding with the `encoding` option, --encoding on the command line)." in str(info.value)


@pytest.mark.parametrize(("data", "encoding", "named"), [
    ("A\nB".encode("utf-16-le")[:-2] + b"\x00\xd8 \x00", "utf-16-le", "bytes 0x00 0xd8"),
    (b"A\n\xe2\x82", "utf-8", "bytes 0xe2 0x82"),  # cut short at the end
    (b"A\n\xe9t\xe9", "utf-8", "byte 0xe9"),
])
def test_read_text_names_the_bytes_of_the_unit_it_cannot_decode(tmp_path, data, encoding, named):
    path = tmp_path / "bad.jsonl"
    path.write_bytes(data)
    with pytest.raises(FormatError) as info:
        read_text(path, encoding=encoding)
    assert str(info.value).startswith(f"Cannot decode {named} as {encoding} ({path}, line 2): ")
