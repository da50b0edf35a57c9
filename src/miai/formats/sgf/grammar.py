"""Forgiving SGF reader: bytes -> Collection of game trees with unescaped property values.

Real files carry text around the game trees, FF[1]-FF[3] long identifiers (AddBlack -> AB), repeated
properties and other damage. What can be repaired is, with an SgfWarning on the collection; what cannot
(an unterminated value, an unclosed variation, no game tree at all) raises SgfError with line and column.
The file is decoded before it is parsed, so multi-byte codecs whose trail bytes look like ']' or '\\'
(Shift_JIS, Big5) read correctly. The limits of limits.py are checked while reading, before a tree is
built: nodes and nesting as they come, and the budget of work on every node, property and value.
"""

from __future__ import annotations

import re

from miai.formats.sgf import charset, limits
from miai.formats.sgf.errors import SgfError, SgfWarning, locate
from miai.formats.sgf.limits import Budget, TooCostly
from miai.formats.sgf.tree import Collection, GameTree, Node

_BOM = b"\xef\xbb\xbf"
# A bare "(" in surrounding prose does not start a tree; "(;", "((" or "(GM[" (a lost ';') do.
_TREE_START = re.compile(r"\(\s*(?:[;(]|[A-Z][A-Za-z]*\s*\[)")
_SPACE = re.compile(r"\s*")
_IDENT = re.compile(r"[A-Za-z]+")
_ESCAPE = re.compile(r"\\(\r\n|\n\r|\r|\n|.)", re.DOTALL)
_LINE_BREAKS = frozenset({"\r\n", "\n\r", "\r", "\n"})
_LOWER = re.compile(r"[a-z]+")
_JUNK = re.compile(r"[^\s()\[;A-Za-z]+")


def parse_sgf(data: bytes, budget: Budget | None = None) -> Collection:
    """Read every game tree in `data`, decoded with the root's CA (else UTF-8, else ISO-8859-1).

    `budget` bounds the reading (default: `Budget()`, limits for files on one's own disk); pass one to
    go on spending it on what reads the tree next (go_read.load_go)."""
    if not isinstance(data, bytes | bytearray | memoryview):
        raise TypeError(f"parse_sgf reads bytes, not {type(data).__name__}; encode text first")
    data = bytes(data)
    if data.startswith(_BOM):  # written by some Windows editors; the file is then UTF-8
        data = data[len(_BOM) :]
    declared = find_root_property(data.decode("iso8859-1"), "CA")
    text, codec, warnings = charset.decode(data, *(declared or (None, 0)))
    reader = _Reader(text, budget or Budget(), warnings)
    roots = reader.read()
    for root, at in zip(roots[1:], reader.root_positions[1:], strict=True):
        other = root.get("CA")
        if other is not None and charset.lookup_codec(other) != codec:
            reader.warn(
                at,
                f"this game tree declares CA[{_preview(other)}] but the "
                f"file was decoded as {codec}, following the first game tree",
            )
    return Collection([GameTree(root) for root in roots], reader.finish(), codec)


def _preview(text: str, length: int = 30) -> str:
    """A value or name quoted in a message: the start of it (identifiers and values may be megabytes)."""
    return text if len(text) <= length else text[: length - 3] + "..."


def normalise_identifier(raw: str) -> str:
    """FF[1]-FF[3] decorate identifiers with lower-case letters (AddBlack); the capitals are the name."""
    if raw.isupper():
        return raw
    return _LOWER.sub("", raw) or raw.upper()


def unescape(raw: str) -> str:
    """Resolve `\\x` escapes to `x` and drop soft line breaks (a backslash before a line break)."""
    if "\\" not in raw:
        return raw
    return _ESCAPE.sub(lambda m: "" if m.group(1) in _LINE_BREAKS else m.group(1), raw)


def _skip_space(text: str, pos: int, end: int | None = None) -> int:
    space = _SPACE.match(text, pos, len(text) if end is None else end)
    assert space is not None  # r"\s*" matches anywhere
    return space.end()


def find_root_property(text: str, prop: str) -> tuple[str, int] | None:
    """The first value of `prop` in the first root node, and its offset; a light scan used before decoding."""
    start = _TREE_START.search(text)
    if start is None:
        return None
    pos = start.start() + 1
    while (pos := _skip_space(text, pos)) < len(text) and text[pos] in "(;":
        pos += 1
    while ident := _IDENT.match(text, _skip_space(text, pos)):
        pos = ident.end()
        wanted = normalise_identifier(ident.group()) == prop
        found: tuple[str, int] | None = None
        while value := raw_value(text, _skip_space(text, pos)):
            raw, pos = value
            if found is None and wanted:
                found = (unescape(raw), ident.start())
        if found is not None:
            return found
    return None


def raw_value(text: str, pos: int) -> tuple[str, int] | None:
    """The still escaped text of the value whose '[' is at `pos`, and the offset after its ']'; None if
    there is no '[' at `pos` or no unescaped ']' after it.

    A ']' ends the value unless an odd number of backslashes stands before it. Found with str.find, not a
    regular expression: one with a group repeated per escape keeps memory for each (80 MB for a megabyte
    of escapes)."""
    if not text.startswith("[", pos):
        return None
    start = search = pos + 1
    while (close := text.find("]", search)) >= 0:
        first = close
        while first > start and text[first - 1] == "\\":
            first -= 1
        if (close - first) % 2 == 0:
            return text[start:close], close + 1
        search = close + 1
    return None


class _Frame:
    """One open parenthesis: where its first node goes, and the last node of its sequence so far."""

    __slots__ = ("has_nodes", "in_variations", "last", "open_at", "owner")

    def __init__(self, owner: Node | None, open_at: int) -> None:
        self.owner = owner  # None: the frame's first node is the root of a new game tree
        self.open_at = open_at
        self.last: Node | None = None
        self.in_variations = False
        self.has_nodes = False  # a node was read inside this frame, perhaps in a nested one


class _Reader:
    def __init__(self, text: str, budget: Budget, warnings: list[SgfWarning]) -> None:
        self.text = text
        self.budget = budget
        self.limits = budget.limits
        self.warnings = warnings
        self.unlisted = 0  # warnings over the limit, counted
        self.first_unlisted = 0  # where the first of them was
        self.nodes = 0
        self.roots: list[Node] = []
        self.root_positions: list[int] = []

    def warn(self, pos: int, message: str) -> None:
        if len(self.warnings) < self.limits.warnings:
            self.warnings.append(SgfWarning(*locate(self.text, pos), message))
            return
        if not self.unlisted:
            self.first_unlisted = pos
        self.unlisted += 1

    def finish(self) -> list[SgfWarning]:
        """The warnings, the last one counting those over the limit."""
        if self.unlisted:
            message = f"{self.unlisted:,} more warnings like the ones above, from here on, not listed"
            self.warnings.append(SgfWarning(*locate(self.text, self.first_unlisted), message))
        return self.warnings

    def error(self, pos: int, message: str) -> SgfError:
        return SgfError(message, *locate(self.text, pos))

    def spend(self, pos: int, units: int, what: str) -> None:
        try:
            self.budget.spend(units, what)
        except TooCostly as err:
            raise TooCostly(err.message, *locate(self.text, pos)) from None

    def skip_ignored(self, start: int, end: int, where: str) -> None:
        """Warn about non-blank text in [start, end) that is not part of any game tree."""
        first = _skip_space(self.text, start, end)
        if first < end:
            preview = _preview(self.text[first : min(end, first + 100)].strip())
            self.warn(first, f"ignored text {where}: {preview!r}")

    def read(self) -> list[Node]:
        pos, text = 0, self.text
        while start := _TREE_START.search(text, pos):
            where = "between game trees" if self.roots else "before the first game tree"
            self.skip_ignored(pos, start.start(), where)
            pos = self.read_tree(start.start())
        self.skip_ignored(pos, len(text), "after the last game tree")
        if not self.roots:
            raise self.error(0, "no SGF game tree found (a game tree starts with '(;')")
        return self.roots

    def attach(self, frame: _Frame, pos: int) -> Node:
        """Create the node that starts at `pos` and link it where the frame's sequence continues."""
        self.nodes += 1
        if self.nodes > self.limits.nodes:
            most = self.limits.nodes
            raise self.error(pos, f"the record has more than {most:,} nodes (the most one may have)")
        self.spend(pos, limits.NODE, "its nodes")
        node = Node()
        if frame.last is None:
            if frame.owner is None:
                self.roots.append(node)
                self.root_positions.append(pos)
            else:
                frame.owner.add_child(node)
        else:
            if frame.in_variations:
                self.warn(pos, "a node after variations; read as one more variation")
                frame.in_variations = False
            frame.last.add_child(node)
        frame.last = node
        frame.has_nodes = True
        return node

    def read_tree(self, start: int) -> int:
        """Read the game tree whose '(' is at `start`; return the offset just after its ')'."""
        text, size = self.text, len(self.text)
        stack = [_Frame(None, start)]
        node: Node | None = None  # the node receiving properties, if any
        pos = start + 1
        while stack:
            frame = stack[-1]
            pos = _skip_space(text, pos)
            if pos >= size:
                # A lost final ')' is common and harmless; an unclosed variation leaves its extent unknown.
                if len(stack) > 1:
                    raise self.error(frame.open_at, "unbalanced parentheses: this '(' is never closed")
                self.warn(pos, "the file ends before the game tree's closing ')'; closed it there")
                if not frame.has_nodes:
                    self.warn(frame.open_at, "an empty game tree '(' ignored")
                return pos
            char = text[pos]
            if char == ";":
                node = self.attach(frame, pos)
                pos += 1
            elif char == "(":
                if len(stack) >= self.limits.depth:
                    raise self.error(pos, f"variations nested more than {self.limits.depth:,} deep")
                self.spend(pos, 1, "its variations")
                node = None
                child = _Frame(frame.last, pos)
                if frame.last is None:
                    self.warn(
                        pos, "a '(' before any node of its own sequence; its variations are read one level up"
                    )
                    child.owner = frame.owner
                else:
                    frame.in_variations = True
                stack.append(child)
                pos += 1
            elif char == ")":
                node = None
                stack.pop()
                if not frame.has_nodes:
                    self.warn(frame.open_at, "an empty game tree or variation '()' ignored")
                elif stack:
                    stack[-1].has_nodes = True
                pos += 1
            elif char == "[":
                self.spend(pos, limits.VALUE, "its property values")
                value, end = self.read_value(pos)
                self.warn(pos, f"a value with no property identifier ignored: [{_preview(value)}]")
                pos = end
            elif ident := _IDENT.match(text, pos):
                if node is None:
                    self.warn(pos, "a property outside any node (missing ';'); read as a new node")
                    node = self.attach(frame, pos)
                pos = self.read_property(node, ident)
            else:
                self.spend(pos, 1, "its stray characters")
                junk = _JUNK.match(text, pos)
                end = junk.end() if junk else pos + 1
                self.warn(pos, f"unexpected characters ignored: {text[pos:min(end, pos + 30)]!r}")
                pos = end
        return pos

    def read_value(self, pos: int) -> tuple[str, int]:
        """The unescaped value whose '[' is at `pos`, and the offset after its ']'."""
        value = raw_value(self.text, pos)
        if value is None:
            raise self.error(pos, "unterminated property value (no closing ']')")
        raw, end = value
        return unescape(raw), end

    def read_property(self, node: Node, ident: re.Match[str]) -> int:
        """Read an identifier and its values into `node`; return the offset after the last value."""
        text, raw = self.text, ident.group()
        prop = normalise_identifier(raw)
        shown = _preview(prop)
        self.spend(ident.start(), limits.PROPERTY, "its properties")
        values: list[str] = []
        pos = ident.end()
        while (pos := _skip_space(text, pos)) < len(text) and text[pos] == "[":
            self.spend(pos, limits.VALUE, "its property values")
            value, pos = self.read_value(pos)
            values.append(value)
        if not values:
            self.warn(ident.start(), f"property {_preview(raw)} has no value; ignored")
        elif prop in node.properties:
            self.warn(ident.start(), f"property {shown} repeated in one node; its values were merged")
            node.properties[prop] += values
        else:
            if raw.islower():
                self.warn(ident.start(), f"lower-case property identifier {_preview(raw)} read as {shown}")
            node.properties[prop] = values
        return pos
