"""The forgiving reader: each oddity of real files, and the damage it refuses with line and column."""

from __future__ import annotations

import pytest

from miai.formats.sgf import Collection, GameTree, Node, SgfError, parse_sgf


def only_tree(data: bytes) -> GameTree:
    collection = parse_sgf(data)
    assert len(collection) == 1
    return collection[0]


def messages(collection: Collection) -> list[str]:
    return [warning.message for warning in collection.warnings]


# --- layout and identifiers ---


def test_plain_game_reads_without_warnings() -> None:
    collection = parse_sgf(b"(;FF[4]GM[1]SZ[9];B[ee];W[cc])")
    assert collection.warnings == []
    assert [node.properties for node in collection[0].main_line()] == [
        {"FF": ["4"], "GM": ["1"], "SZ": ["9"]},
        {"B": ["ee"]},
        {"W": ["cc"]},
    ]


def test_whitespace_and_newlines_anywhere() -> None:
    data = b"\r\n  ( \n ; FF [4]\n\tSZ\r\n[9]  ;\nB  [ee]\n ; W[cc] \n)\n\n"
    tree = only_tree(data)
    assert tree == GameTree(Node({"FF": "4", "SZ": "9"}, [Node({"B": "ee"}, [Node({"W": "cc"})])]))
    assert parse_sgf(data).warnings == []


def test_text_before_the_first_tree_is_skipped_with_a_warning() -> None:
    collection = parse_sgf(b"Game record (from a mail):\nenjoy!\n(;GM[1];B[aa])")
    assert collection[0].root.get("GM") == "1"
    (warning,) = collection.warnings
    assert (warning.line, warning.column) == (1, 1)
    assert "before the first game tree" in warning.message


def test_long_lower_case_identifiers_of_old_formats() -> None:
    root = only_tree(b"(;FF[3]AddBlack[aa][bb]AddWhite[cc]CoPyright[me];White[dd];Black[ee])").root
    assert root.properties == {"FF": ["3"], "AB": ["aa", "bb"], "AW": ["cc"], "CP": ["me"]}
    assert [node.get_all("W") + node.get_all("B") for node in root.main_line()][1:] == [["dd"], ["ee"]]


def test_all_lower_case_identifier_is_upper_cased_with_a_warning() -> None:
    collection = parse_sgf(b"(;b[aa])")
    assert collection[0].root.properties == {"B": ["aa"]}
    assert any("lower-case" in message for message in messages(collection))


def test_several_values_and_whitespace_between_them() -> None:
    root = only_tree(b"(;AB[aa][bb]\n  [cc] AW[dd])").root
    assert root.get_all("AB") == ["aa", "bb", "cc"]
    assert root.get("AB") == "aa"


def test_repeated_property_in_one_node_is_merged_with_a_warning() -> None:
    collection = parse_sgf(b"(;AB[aa]AW[bb]AB[cc]AddBlack[dd])")
    assert collection[0].root.properties == {"AB": ["aa", "cc", "dd"], "AW": ["bb"]}
    assert sum("repeated" in message for message in messages(collection)) == 2


def test_empty_values_are_kept() -> None:
    tree = only_tree(b"(;GM[1];B[];W[tt]C[])")
    assert [node.properties for node in tree.main_line()][1:] == [{"B": [""]}, {"W": ["tt"], "C": [""]}]


def test_property_with_no_value_is_dropped_with_a_warning() -> None:
    collection = parse_sgf(b"(;GM[1]PL;B[aa]KO)")
    assert collection[0] == GameTree(Node({"GM": "1"}, [Node({"B": "aa"})]))
    assert sum("has no value" in message for message in messages(collection)) == 2


# --- escapes and soft line breaks ---


def test_escapes_inside_values() -> None:
    root = only_tree(rb"(;C[a \] b \\ c \: d \x]GN[\\])").root
    assert root.get("C") == "a ] b \\ c : d x"
    assert root.get("GN") == "\\"


@pytest.mark.parametrize("newline", [b"\n", b"\r\n", b"\r", b"\n\r"])
def test_soft_line_breaks_are_removed(newline: bytes) -> None:
    root = only_tree(b"(;C[one \\" + newline + b"line" + newline + b"two])").root
    assert root.get("C") == "one line" + newline.decode() + "two"


def test_escaped_backslash_before_newline_is_not_a_soft_break() -> None:
    assert only_tree(b"(;C[a\\\\\nb])").root.get("C") == "a\\\nb"


def test_special_characters_inside_values_are_plain_text() -> None:
    assert only_tree(b"(;C[(;)[ AB[x] ;)])").root.get("C") == "(;)[ AB[x"  # ends at the first bare ']'
    assert only_tree(rb"(;C[(;)\[ AB[x\] ;)])").root.get("C") == "(;)[ AB[x] ;)"


# --- structure ---


def test_variations() -> None:
    tree = only_tree(b"(;GM[1](;B[aa];W[bb](;B[cc])(;B[dd]))(;B[ee]))")
    expected = Node(
        {"GM": "1"},
        [
            Node({"B": "aa"}, [Node({"W": "bb"}, [Node({"B": "cc"}), Node({"B": "dd"})])]),
            Node({"B": "ee"}),
        ],
    )
    assert tree.root == expected
    assert [node.properties for node in tree.main_line()][1:] == [{"B": ["aa"]}, {"W": ["bb"]}, {"B": ["cc"]}]
    assert all(child.parent is node for node in tree.nodes() for child in node.children)


def test_several_game_trees_in_one_file() -> None:
    collection = parse_sgf(b"(;GN[one];B[aa])\n\n(;GN[two];W[bb])(;GN[three])")
    assert [tree.root.get("GN") for tree in collection] == ["one", "two", "three"]
    assert collection.warnings == []


@pytest.mark.parametrize("tail", [b";", b"\n;\n", b"))", b"\x1a", b"end of file\n", b"(junk"])
def test_trailing_garbage_is_ignored_with_a_warning(tail: bytes) -> None:
    collection = parse_sgf(b"(;GM[1];B[aa])" + tail)
    assert collection[0] == GameTree(Node({"GM": "1"}, [Node({"B": "aa"})]))
    assert [warning.message.split(":")[0] for warning in collection.warnings] == [
        "ignored text after the last game tree"
    ]


def test_empty_nodes_from_stray_semicolons_are_kept() -> None:
    tree = only_tree(b"(;GM[1];;B[aa];)")
    assert [node.properties for node in tree.main_line()] == [{"GM": ["1"]}, {}, {"B": ["aa"]}, {}]


def test_missing_final_parenthesis_is_repaired_with_a_warning() -> None:
    collection = parse_sgf(b"(;GM[1];B[aa];W[bb]\n")
    assert len(list(collection[0].main_line())) == 3
    assert any("closing ')'" in message for message in messages(collection))


def test_property_before_the_first_semicolon_starts_a_node() -> None:
    collection = parse_sgf(b"(GM[1];B[aa])")
    assert collection[0] == GameTree(Node({"GM": "1"}, [Node({"B": "aa"})]))
    assert any("missing ';'" in message for message in messages(collection))


def test_node_after_variations_becomes_one_more_variation() -> None:
    collection = parse_sgf(b"(;GM[1](;B[aa])(;B[bb]);B[cc];W[dd])")
    root = collection[0].root
    assert [child.get("B") for child in root.children] == ["aa", "bb", "cc"]
    assert root.children[2].children[0].get("W") == "dd"
    assert any("after variations" in message for message in messages(collection))


def test_parenthesis_before_any_node_lifts_its_variations() -> None:
    collection = parse_sgf(b"((;GN[a])(;GN[b]))")
    assert [tree.root.get("GN") for tree in collection] == ["a", "b"]
    assert collection.warnings


def test_empty_variation_and_orphan_value_and_junk_are_reported() -> None:
    collection = parse_sgf(b"(;GM[1]()[orphan] 42 ;B[aa])")
    assert collection[0] == GameTree(Node({"GM": "1"}, [Node({"B": "aa"})]))
    found = messages(collection)
    assert any("empty" in message for message in found)
    assert any("no property identifier" in message for message in found)
    assert any("unexpected characters" in message for message in found)


def test_warning_positions_are_line_and_column() -> None:
    collection = parse_sgf(b"(;GM[1]\n;B[aa]\n  KO\n;W[bb])")
    (warning,) = collection.warnings
    assert (warning.line, warning.column) == (3, 3)
    assert str(warning) == "line 3, column 3: property KO has no value; ignored"


# --- unrecoverable damage ---


def test_unterminated_value_reports_its_position() -> None:
    data = b"(;GM[1]\n;B[aa]\n;W[bb]C[never closed \\]\n\n"
    with pytest.raises(SgfError) as caught:
        parse_sgf(data)
    assert (caught.value.line, caught.value.column) == (3, 8)
    assert str(caught.value) == "line 3, column 8: unterminated property value (no closing ']')"


def test_unclosed_variation_is_unbalanced() -> None:
    with pytest.raises(SgfError, match=r"line 2, column 1: unbalanced parentheses") as caught:
        parse_sgf(b"(;GM[1]\n(;B[aa]\n(;B[bb])")
    assert caught.value.line == 2


@pytest.mark.parametrize("data", [b"", b"   \n", b"no sgf here", b"(not a tree) [x]", b"()", b"("])
def test_no_game_tree_at_all(data: bytes) -> None:
    with pytest.raises(SgfError, match="no SGF game tree"):
        parse_sgf(data)


def test_sgf_error_is_a_value_error_and_str_is_refused() -> None:
    assert issubclass(SgfError, ValueError)
    with pytest.raises(TypeError):
        parse_sgf("(;GM[1])")  # type: ignore[arg-type]
