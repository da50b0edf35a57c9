"""Property tests: generated trees survive dump/parse exactly, and messy spellings of them read the same."""

from __future__ import annotations

import string

from hypothesis import given, settings
from hypothesis import strategies as st

from miai.formats.sgf import (
    Collection,
    GameTree,
    Node,
    as_written,
    decode_compose,
    decode_move,
    decode_point,
    decode_point_list,
    decode_real,
    dump_sgf,
    dump_sgf_text,
    encode_compose,
    encode_move,
    encode_point,
    encode_real,
    parse_sgf,
)

SPECIAL = "]\\:[();\n\r \t"
identifiers = st.text(string.ascii_uppercase, min_size=1, max_size=3)
texts = st.text(st.one_of(st.sampled_from(SPECIAL), st.characters(codec="utf-8")), max_size=12)
property_maps = st.dictionaries(identifiers, st.lists(texts, min_size=1, max_size=3), max_size=4)


def build(properties: dict[str, list[str]], children: list[Node]) -> Node:
    return Node(properties, children)


nodes = st.recursive(
    property_maps.map(lambda properties: build(properties, [])),
    lambda below: st.builds(build, property_maps, st.lists(below, max_size=3)),
    max_leaves=25,
)
collections = st.lists(nodes.map(GameTree), min_size=1, max_size=3).map(Collection)


@settings(max_examples=300, deadline=None)
@given(collections, st.integers(min_value=1, max_value=120), st.sets(identifiers, max_size=3))
def test_dump_then_parse_gives_the_same_trees(collection: Collection, width: int, compose: set[str]) -> None:
    written = dump_sgf(collection, width=width, escape_compose=compose)
    again = parse_sgf(written)
    assert again == Collection([as_written(tree) for tree in collection])
    assert again.warnings == []
    assert again.encoding == "utf-8"
    # The round trip the project promises: parse(dump(parse(x))) == parse(x).
    assert parse_sgf(dump_sgf(again)) == again


# --- a deliberately untidy writer, to check the reader against the model ---


@st.composite
def untidy(draw: st.DrawFn, tree: GameTree) -> str:
    """Like dump_sgf_text, but with old-style identifiers, needless escapes, soft breaks and whitespace."""

    def space() -> str:
        return draw(st.sampled_from(["", "", " ", "\n", "\r\n", "\t", "  \n "]))

    def identifier(prop: str) -> str:
        return "".join(letter + draw(st.sampled_from(["", "", "dd", "x"])) for letter in prop)

    def value(text: str) -> str:
        out = []
        for char in text:
            if draw(st.integers(0, 5)) == 0:
                out.append("\\\r\n")  # a soft line break; CR LF is always read as one, whatever follows
            needless = char not in "\r\n" and draw(st.integers(0, 4)) == 0
            out.append("\\" + char if char in "]\\" or needless else char)
        return "[" + "".join(out) + "]" + space()

    parts = [space(), "("]
    stack: list[Node | str] = [tree.root]
    while stack:
        item = stack.pop()
        if isinstance(item, str):
            parts.append(item)
            continue
        parts.append(space() + ";" + space())
        later = []  # FF[3] files repeat a property within a node; the reader merges the values in order
        for prop, values in item.properties.items():
            split = draw(st.integers(1, len(values)))
            parts.append(identifier(prop) + space() + "".join(value(text) for text in values[:split]))
            if values[split:]:
                later.append(identifier(prop) + space() + "".join(value(text) for text in values[split:]))
        parts += later
        if len(item.children) == 1:
            stack.append(item.children[0])
            continue
        for child in reversed(item.children):
            stack += [")" + space(), child, space() + "("]
    parts.append(")" + space())
    return "".join(parts)


@settings(max_examples=200, deadline=None)
@given(st.data(), nodes)
def test_untidy_spellings_read_as_the_same_tree(data: st.DataObject, root: Node) -> None:
    root.delete("CA")  # a random CA value would choose another codec
    tree = GameTree(root)
    text = data.draw(untidy(tree))
    collection = parse_sgf(text.encode())
    assert collection == Collection([tree])


# --- typed codecs ---


@given(st.data(), st.integers(1, 52), st.integers(1, 52))
def test_points_round_trip(data: st.DataObject, columns: int, rows: int) -> None:
    col, row = data.draw(st.integers(0, columns - 1)), data.draw(st.integers(0, rows - 1))
    size = columns if columns == rows else (columns, rows)
    value = encode_point((col, row), size)
    assert decode_point(value, size) == (col, row)
    assert decode_move(encode_move((col, row), size), size) == (col, row)
    assert decode_move(encode_move(None, size), size) is None
    assert decode_point_list([f"{value}:{value}"], size) == [(col, row)]


@given(st.floats(allow_nan=False, allow_infinity=False))
def test_reals_round_trip(number: float) -> None:
    assert decode_real(encode_real(number)) == number


@given(texts.filter(lambda text: ":" not in text), texts)
def test_compose_round_trip(first: str, second: str) -> None:
    assert decode_compose(encode_compose(first, second)) == (first, second)
    tree = GameTree(Node({"LB": encode_compose(first, second)}))
    written = dump_sgf_text(tree, escape_compose={"LB"})
    assert decode_compose(parse_sgf(written.encode())[0].root.get_all("LB")[0]) == (first, second)
