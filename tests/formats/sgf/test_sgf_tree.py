"""Nodes, game trees and collections: helpers, main line, equality, copies."""

from __future__ import annotations

import pytest

from miai.formats.sgf import Collection, GameTree, Node, SgfError, SgfWarning


def test_property_helpers() -> None:
    node = Node({"B": "aa", "C": ["hello"]})
    assert node.has("B") and not node.has("W")
    assert node.get("B") == "aa"
    assert node.get("W") is None
    assert node.get_all("W") == []
    node.set("AB", ["bb", "cc"])
    node.set("B", "dd")  # replaced in place: order kept
    assert list(node.properties) == ["B", "C", "AB"]
    assert node.get_all("AB") == ["bb", "cc"]
    node.get_all("AB").append("zz")  # a copy
    assert node.get_all("AB") == ["bb", "cc"]
    node.delete("C")
    node.delete("C")
    assert list(node.properties) == ["B", "AB"]


@pytest.mark.parametrize("prop", ["b", "B1", "", "Black", "É"])
def test_invalid_identifiers_are_refused(prop: str) -> None:
    with pytest.raises(SgfError, match="invalid property identifier"):
        Node().set(prop, "x")


def test_a_property_needs_a_value() -> None:
    with pytest.raises(SgfError):
        Node().set("AB", [])


def test_children_and_main_line() -> None:
    root = Node({"GM": "1"})
    first = root.new_child({"B": "aa"})
    first.new_child({"W": "bb"})
    root.new_child({"B": "cc"})
    tree = GameTree(root)
    assert [node.properties for node in tree.main_line()] == [{"GM": ["1"]}, {"B": ["aa"]}, {"W": ["bb"]}]
    assert [node.get("B") or node.get("W") for node in tree.nodes()] == [None, "aa", "bb", "cc"]
    assert first.parent is root
    with pytest.raises(ValueError, match="already has a parent"):
        Node().add_child(first)


def test_equality_is_structural_and_ordered() -> None:
    a = Node({"B": "aa", "C": "x"}, [Node({"W": "bb"}), Node({"W": "cc"})])
    assert a == Node({"B": "aa", "C": "x"}, [Node({"W": "bb"}), Node({"W": "cc"})])
    assert a != Node({"C": "x", "B": "aa"}, [Node({"W": "bb"}), Node({"W": "cc"})])  # property order
    assert a != Node({"B": "aa", "C": "x"}, [Node({"W": "cc"}), Node({"W": "bb"})])  # variation order
    assert a != Node({"B": "aa", "C": "x"}, [Node({"W": "bb"})])
    assert a != Node({"B": ["aa", "aa"], "C": "x"}, [Node({"W": "bb"}), Node({"W": "cc"})])
    assert a != "not a node"


def test_copy_is_deep_and_detached() -> None:
    root = Node({"GM": "1"}, [Node({"B": "aa"}, [Node({"W": "bb"})])])
    child = root.children[0]
    twin = child.copy()
    assert twin == child and twin.parent is None
    twin.children[0].set("W", "cc")
    assert child.children[0].get("W") == "bb"
    assert twin.children[0].parent is twin


def test_deep_trees_do_not_recurse() -> None:
    def chain(length: int) -> GameTree:
        root = node = Node({"GM": "1"})
        for index in range(length):
            node = node.new_child({"B" if index % 2 else "W": "aa"})
        return GameTree(root)

    long_game = chain(20_000)
    assert long_game == chain(20_000)
    assert long_game.copy() == long_game
    assert len(list(long_game.main_line())) == 20_001


def test_collection_equality_ignores_what_the_reader_noticed() -> None:
    trees = [GameTree(Node({"GM": "1"}))]
    noisy = Collection([tree.copy() for tree in trees], [SgfWarning(1, 1, "odd")], "iso8859-1")
    assert noisy == Collection(trees)
    assert len(noisy) == 1 and noisy[0] == trees[0] and list(noisy) == trees
