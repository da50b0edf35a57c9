"""In-memory SGF: nodes with ordered, unescaped property values; variations are a node's children.

Everything that walks a tree is iterative: a long game is a chain of hundreds of nodes, deeper than
Python's recursion limit would comfortably allow.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass, field

from miai.formats.sgf.errors import SgfError, SgfWarning

_IDENTIFIER = re.compile(r"[A-Z]+\Z")


def check_identifier(prop: str) -> str:
    """Return `prop` if it is a valid FF[4] property identifier (upper-case letters), else raise."""
    if not _IDENTIFIER.match(prop):
        raise SgfError(f"invalid property identifier {prop!r}: expected upper-case letters A-Z")
    return prop


class Node:
    """One SGF node. `properties` maps identifier -> values in file order; `children[0]` is the main line.

    Equality compares properties (including their order) and the whole subtree below, not the parent.
    """

    __slots__ = ("children", "parent", "properties")

    def __init__(
        self, properties: Mapping[str, str | Iterable[str]] | None = None, children: Iterable[Node] = ()
    ) -> None:
        self.properties: dict[str, list[str]] = {}
        self.children: list[Node] = []
        self.parent: Node | None = None
        for prop, values in (properties or {}).items():
            self.set(prop, values)
        for child in children:
            self.add_child(child)

    def has(self, prop: str) -> bool:
        return prop in self.properties

    def get(self, prop: str) -> str | None:
        """The first value of `prop`, or None when the node does not have it."""
        values = self.properties.get(prop)
        return values[0] if values else None

    def get_all(self, prop: str) -> list[str]:
        """All values of `prop` (a copy; empty when absent)."""
        return list(self.properties.get(prop, ()))

    def set(self, prop: str, values: str | Iterable[str]) -> None:
        """Replace the values of `prop`, keeping its place if it exists; a str is a single value."""
        new = [values] if isinstance(values, str) else list(values)
        if not new:
            raise SgfError(f"property {prop} needs at least one value")
        if not all(isinstance(value, str) for value in new):
            raise SgfError(f"values of property {prop} must be strings")
        self.properties[check_identifier(prop)] = new

    def delete(self, prop: str) -> None:
        self.properties.pop(prop, None)

    def add_child(self, child: Node) -> Node:
        """Append `child` as the last variation and return it; it must not belong to another node."""
        if child.parent is not None:
            raise ValueError("the node already has a parent; add a copy() instead")
        child.parent = self
        self.children.append(child)
        return child

    def new_child(self, properties: Mapping[str, str | Iterable[str]] | None = None) -> Node:
        return self.add_child(Node(properties))

    def main_line(self) -> Iterator[Node]:
        """This node, then the first child of each node in turn."""
        node: Node | None = self
        while node is not None:
            yield node
            node = node.children[0] if node.children else None

    def walk(self) -> Iterator[Node]:
        """Every node of the subtree, depth first, main line before variations."""
        stack = [self]
        while stack:
            node = stack.pop()
            yield node
            stack.extend(reversed(node.children))

    def copy(self) -> Node:
        """A deep copy of the subtree, detached from any parent."""
        top = Node()
        stack = [(self, top)]
        while stack:
            source, target = stack.pop()
            target.properties = {prop: list(values) for prop, values in source.properties.items()}
            for child in source.children:
                stack.append((child, target.add_child(Node())))
        return top

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Node):
            return NotImplemented
        stack: list[tuple[Node, Node]] = [(self, other)]
        while stack:
            a, b = stack.pop()
            if a is b:
                continue
            if len(a.children) != len(b.children):
                return False
            if list(a.properties.items()) != list(b.properties.items()):
                return False
            stack.extend(zip(a.children, b.children, strict=True))
        return True

    __hash__ = None  # type: ignore[assignment]  # mutable: equal nodes may change, so no hashing

    def __repr__(self) -> str:
        return f"Node({self.properties!r}, children={len(self.children)})"


@dataclass(eq=True)
class GameTree:
    """One game: a root node and everything below it."""

    root: Node = field(default_factory=Node)

    def main_line(self) -> Iterator[Node]:
        return self.root.main_line()

    def nodes(self) -> Iterator[Node]:
        return self.root.walk()

    def copy(self) -> GameTree:
        return GameTree(self.root.copy())


@dataclass(eq=True)
class Collection:
    """The game trees of one file. Equality compares the trees only, not what the reader noticed."""

    trees: list[GameTree] = field(default_factory=list)
    warnings: list[SgfWarning] = field(default_factory=list, compare=False)
    encoding: str = field(default="utf-8", compare=False)  # the codec the reader decoded with

    def __iter__(self) -> Iterator[GameTree]:
        return iter(self.trees)

    def __len__(self) -> int:
        return len(self.trees)

    def __getitem__(self, index: int) -> GameTree:
        return self.trees[index]
