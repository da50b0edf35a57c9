"""Text encodings: CA[...] found on the raw bytes, else UTF-8, else ISO-8859-1."""

from __future__ import annotations

import pytest

from miai.formats.sgf import dump_sgf, parse_sgf
from miai.formats.sgf.charset import lookup_codec

NAME = "Ærø Ünïcødé"


@pytest.mark.parametrize(
    ("declared", "expected"),
    [
        ("UTF-8", "utf-8"),
        ("utf8", "utf-8"),
        ("ISO-8859-1", "iso8859-1"),
        ("ISO8859_1", "iso8859-1"),
        ("iso88591", "iso8859-1"),
        ("Latin1", "iso8859-1"),
        ("GB2312", "gb2312"),
        ("Shift_JIS", "shift_jis"),
        ("SJIS", "shift_jis"),
        ("windows-1252", "cp1252"),
        ("Windows1252", "cp1252"),
        (" ASCII ", "ascii"),
    ],
)
def test_charset_names(declared: str, expected: str) -> None:
    assert lookup_codec(declared) == expected


@pytest.mark.parametrize("declared", ["klingon", "", "UTF-16", "base64", "rot13"])
def test_unknown_or_unusable_charsets(declared: str) -> None:
    assert lookup_codec(declared) is None


def test_latin1_declared() -> None:
    collection = parse_sgf(f"(;CA[ISO-8859-1]PB[{NAME}])".encode("latin-1"))
    assert collection[0].root.get("PB") == NAME
    assert collection.encoding == "iso8859-1"
    assert collection.warnings == []


def test_latin1_without_ca_falls_back_silently() -> None:
    collection = parse_sgf(f"(;PB[{NAME}])".encode("latin-1"))
    assert collection[0].root.get("PB") == NAME
    assert collection.encoding == "iso8859-1"
    assert collection.warnings == []


def test_utf8_without_ca() -> None:
    collection = parse_sgf(f"(;PB[{NAME}]C[囲碁])".encode())
    assert collection[0].root.get("C") == "囲碁"
    assert collection.encoding == "utf-8"


def test_gb2312_declared_after_chinese_values() -> None:
    data = "(;PB[古力]PW[李世石]CA[gb2312]C[黑棋中盘胜])".encode("gb2312")
    collection = parse_sgf(data)
    assert collection[0].root.get("PB") == "古力"
    assert collection[0].root.get("C") == "黑棋中盘胜"
    assert collection.encoding == "gb2312"


def test_shift_jis_with_trail_bytes_that_look_like_escapes() -> None:
    # 表 and ソ end with 0x5C ('\\') in Shift_JIS: values must be decoded before escapes are read.
    text = "表ソ能]"
    assert b"\\" in text.encode("shift_jis")
    data = "(;CA[Shift_JIS]GN[対局];C[表ソ能\\]])".encode("shift_jis")
    collection = parse_sgf(data)
    assert collection[0].root.get("GN") == "対局"
    assert collection[0].root.children[0].get("C") == text


def test_unknown_ca_warns_and_falls_back() -> None:
    collection = parse_sgf(f"(;CA[klingon]PB[{NAME}])".encode("latin-1"))
    assert collection[0].root.get("PB") == NAME
    assert collection.encoding == "iso8859-1"
    (warning,) = collection.warnings
    assert "unknown charset CA[klingon]" in str(warning)
    assert (warning.line, warning.column) == (1, 3)


def test_wrong_ca_warns_and_falls_back() -> None:
    collection = parse_sgf(f"(;CA[UTF-8]\nPB[{NAME}])".encode("latin-1"))
    assert collection[0].root.get("PB") == NAME
    (warning,) = collection.warnings
    assert "not valid utf-8" in warning.message
    assert warning.line == 2


def test_byte_order_mark_is_skipped() -> None:
    collection = parse_sgf("\ufeff(;CA[UTF-8]PB[秀策])".encode())
    assert collection[0].root.get("PB") == "秀策"
    assert collection.warnings == []


def test_ca_in_a_later_tree_that_disagrees_is_reported() -> None:
    collection = parse_sgf(b"(;CA[UTF-8]GN[a])(;CA[GB2312]GN[b])")
    assert len(collection) == 2
    assert any("CA[GB2312]" in warning.message for warning in collection.warnings)


def test_writer_output_is_utf8_whatever_was_read() -> None:
    collection = parse_sgf("(;FF[3]CA[Shift_JIS]PB[本因坊])".encode("shift_jis"))
    written = dump_sgf(collection)
    assert written.decode("utf-8") == "(;FF[4]CA[UTF-8]PB[本因坊])\n"
    assert parse_sgf(written)[0].root.get("PB") == "本因坊"
