"""The strict writer: FF[4] and CA[UTF-8], escapes, variations, line wrapping, and exact round trips."""

from __future__ import annotations

import pytest

from miai.formats.sgf import (
    COMPOSE_PROPERTIES,
    Collection,
    GameTree,
    Node,
    SgfError,
    as_written,
    dump_sgf,
    dump_sgf_text,
    parse_sgf,
)


def test_root_gets_ff4_and_utf8_whatever_it_said() -> None:
    tree = GameTree(Node({"GM": "1", "FF": "3", "CA": "ISO-8859-1", "SZ": "9"}))
    assert dump_sgf_text(tree) == "(;GM[1]FF[4]CA[UTF-8]SZ[9])\n"
    assert dump_sgf_text(GameTree(Node({"GM": "1"}))) == "(;FF[4]CA[UTF-8]GM[1])\n"
    assert dump_sgf_text(GameTree(Node({"GM": "1", "CA": "x"}))) == "(;FF[4]GM[1]CA[UTF-8])\n"
    assert tree.root.get("CA") == "ISO-8859-1"  # the tree itself is not changed
    assert as_written(tree).root.properties == {"GM": ["1"], "FF": ["4"], "CA": ["UTF-8"], "SZ": ["9"]}


def test_escapes() -> None:
    tree = GameTree(Node({"C": "a]b\\c:d", "LB": ["dd:x:y", "ee:z"]}))
    assert dump_sgf_text(tree) == "(;FF[4]CA[UTF-8]C[a\\]b\\\\c:d]LB[dd:x:y][ee:z])\n"
    escaped = dump_sgf_text(tree, escape_compose=COMPOSE_PROPERTIES)
    assert "LB[dd:x\\:y][ee:z]" in escaped and "C[a\\]b\\\\c:d]" in escaped
    assert parse_sgf(escaped.encode())[0] == as_written(tree)


def test_variations_nest_and_each_node_has_its_semicolon() -> None:
    data = b"(;GM[1](;B[aa];W[bb](;B[cc])(;B[dd]))(;B[ee]))"
    text = dump_sgf_text(parse_sgf(data))
    assert text == "(;FF[4]CA[UTF-8]GM[1]\n(;B[aa];W[bb]\n(;B[cc])\n(;B[dd]))\n(;B[ee]))\n"
    assert text.count(";") == 6


def test_property_order_is_kept() -> None:
    data = b"(;SZ[9]PB[x]GM[1]KM[6.5];W[aa]B[bb]C[c])"
    collection = parse_sgf(data)
    again = parse_sgf(dump_sgf(collection))
    assert list(again[0].root.properties) == ["FF", "CA", "SZ", "PB", "GM", "KM"]
    assert list(again[0].root.children[0].properties) == ["W", "B", "C"]


def test_lines_wrap_between_properties_never_inside_values() -> None:
    long_comment = "word " * 40
    root = Node({"GM": "1", "AB": [f"{c}{r}" for c in "abcdefghij" for r in "abcdefghij"], "C": long_comment})
    node = root
    for index in range(60):
        node = node.new_child({"W" if index % 2 else "B": "dd"})
    text = dump_sgf_text(GameTree(root), width=40)
    lines = text.splitlines()
    assert all(len(line) <= 40 for line in lines if long_comment not in line)
    assert any(long_comment in line for line in lines)  # a long value stays whole
    assert parse_sgf(text.encode())[0] == as_written(GameTree(root))


def test_multiline_values_are_written_as_they_are() -> None:
    tree = GameTree(Node({"C": "line one\nline two\r\nthree\\\n"}))
    text = dump_sgf_text(tree)
    assert "C[line one\nline two\r\nthree\\\\\n]" in text
    assert parse_sgf(text.encode())[0] == as_written(tree)


def test_several_trees_and_bytes_output() -> None:
    collection = Collection([GameTree(Node({"GN": "é"})), GameTree(Node({"GN": "二"}))])
    data = dump_sgf(collection)
    assert data == "(;FF[4]CA[UTF-8]GN[é])\n(;FF[4]CA[UTF-8]GN[二])\n".encode()
    assert [tree.root.get("GN") for tree in parse_sgf(data)] == ["é", "二"]


def test_empty_values_and_empty_nodes_are_written() -> None:
    assert dump_sgf(GameTree(Node({"B": [""]}, [Node()]))) == b"(;FF[4]CA[UTF-8]B[]\n;)\n"


@pytest.mark.parametrize(
    ("source", "message"),
    [(Collection(), "no game tree"), (GameTree(Node({"B": "x\ud800"})), "UTF-8 cannot encode")],
)
def test_writer_refuses_what_sgf_cannot_hold(source: Collection | GameTree, message: str) -> None:
    with pytest.raises(SgfError, match=message):
        dump_sgf(source)


def test_writer_checks_properties_changed_behind_the_helpers() -> None:
    node = Node()
    node.properties["lower"] = ["x"]
    with pytest.raises(SgfError, match="invalid property identifier"):
        dump_sgf(GameTree(node))
    node.properties = {"AB": []}
    with pytest.raises(SgfError, match="no value"):
        dump_sgf(GameTree(node))


ODD_FILE = b"""Here is the game I told you about.
(;FF[3]GaMe[1]SZ[19]AddBlack[dd][pp]AB[dp]CA[ISO8859_1]PB[Bj\xf6rn]C[a \\] b \\
soft]
;B[pd]Comment[]  ;W[] (;B[tt]LB[dd:x\\:y])(;B[qq];) ) garbage;"""


def test_round_trip_of_an_odd_file() -> None:
    first = parse_sgf(ODD_FILE)
    assert first.warnings  # the preamble and the garbage
    assert first[0].root.get("PB") == "Björn"
    assert first[0].root.get_all("AB") == ["dd", "pp", "dp"]
    written = dump_sgf(first)
    second = parse_sgf(written)
    assert second == Collection([as_written(tree) for tree in first])
    assert second.warnings == []
    assert dump_sgf(second) == written  # writing is idempotent
