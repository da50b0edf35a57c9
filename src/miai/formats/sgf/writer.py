"""Strict SGF writer: FF[4], UTF-8, escaped values, one ';' per node, lines wrapped between properties.

The root's FF and CA describe the file rather than the game, so the writer sets them to what it writes
(FF[4], CA[UTF-8]) whatever was read; `as_written` shows a tree exactly as it will read back.
"""

from __future__ import annotations

from collections.abc import Iterable

from miai.formats.sgf.errors import SgfError
from miai.formats.sgf.tree import Collection, GameTree, Node, check_identifier

FILE_FORMAT = "4"
CHARSET = "UTF-8"
# FF[4] properties whose values are compose-typed: with escape_compose the colons inside their parts
# (every colon after the separator) are escaped for readers that split on any colon.
COMPOSE_PROPERTIES = frozenset({"AP", "AR", "FG", "LB", "LN", "SZ"})
DEFAULT_WIDTH = 79


def as_written(tree: GameTree) -> GameTree:
    """A copy of `tree` with the root's FF and CA as the writer sets them: what parsing its output gives."""
    copy = tree.copy()
    copy.root.properties = _root_properties(tree.root)
    return copy


def dump_sgf_text(
    source: Collection | GameTree, *, escape_compose: Iterable[str] = (), width: int = DEFAULT_WIDTH
) -> str:
    """SGF text of every game tree in `source`. Colons are escaped in the properties named in
    `escape_compose` (pass COMPOSE_PROPERTIES for the standard ones); lines are kept under `width`
    where a value allows it, breaking only between properties and nodes."""
    trees = [source] if isinstance(source, GameTree) else list(source)
    if not trees:
        raise SgfError("nothing to write: the collection holds no game tree")
    out = _Lines(width)
    compose = frozenset(escape_compose)
    for tree in trees:
        _write_tree(tree.root, out, compose)
    return out.text()


def dump_sgf(
    source: Collection | GameTree, *, escape_compose: Iterable[str] = (), width: int = DEFAULT_WIDTH
) -> bytes:
    """The UTF-8 bytes of `dump_sgf_text`."""
    text = dump_sgf_text(source, escape_compose=escape_compose, width=width)
    try:
        return text.encode("utf-8")
    except UnicodeEncodeError as exc:
        raise SgfError(f"a value holds text that UTF-8 cannot encode (a lone surrogate?): {exc}") from None


def escape_value(value: str, *, compose: bool = False) -> str:
    """Escape '\\' and ']' (and, for a compose value, each colon after the separator)."""
    escaped = value.replace("\\", "\\\\").replace("]", "\\]")
    if compose:
        first, colon, second = escaped.partition(":")
        escaped = first + colon + second.replace(":", "\\:")
    return escaped


def _root_properties(root: Node) -> dict[str, list[str]]:
    """Root properties with the writer's FF and CA: existing ones keep their places, missing ones go
    first, and CA always follows FF when it is added."""
    given = root.properties
    properties: dict[str, list[str]] = {}
    if "FF" not in given:
        properties["FF"] = [FILE_FORMAT]
    for prop, values in given.items():
        if prop != "FF":
            properties[prop] = [CHARSET] if prop == "CA" else list(values)
            continue
        properties["FF"] = [FILE_FORMAT]
        if "CA" not in given:
            properties["CA"] = [CHARSET]
    if "CA" not in properties:
        properties = {"FF": properties.pop("FF"), "CA": [CHARSET], **properties}
    return properties


class _Lines:
    """Accumulates tokens, starting a new line before a token that would pass the width."""

    def __init__(self, width: int) -> None:
        self.width = width
        self.parts: list[str] = []
        self.column = 0

    def put(self, token: str, *, may_break: bool = True) -> None:
        head = token.partition("\n")[0]
        if may_break and self.column and self.column + len(head) > self.width:
            self.newline()
        self.parts.append(token)
        self.column = len(token) - token.rfind("\n") - 1 if "\n" in token else self.column + len(token)

    def newline(self) -> None:
        if self.column:
            self.parts.append("\n")
            self.column = 0

    def text(self) -> str:
        return "".join(self.parts)


def _node_tokens(properties: dict[str, list[str]], compose: frozenset[str]) -> list[str]:
    """';' and the node's properties, split where a line may break; ';' stays with the first property."""
    tokens = [";"]
    for prop, values in properties.items():
        check_identifier(prop)
        if not values:
            raise SgfError(f"property {prop} has no value; SGF needs at least one")
        for index, value in enumerate(values):
            if not isinstance(value, str):
                raise SgfError(f"property {prop} holds a {type(value).__name__}, not a string")
            text = f"[{escape_value(value, compose=prop in compose)}]"
            tokens.append(prop + text if index == 0 else text)
    tokens[0:2] = ["".join(tokens[0:2])]
    return tokens


def _write_tree(root: Node, out: _Lines, compose: frozenset[str]) -> None:
    # Explicit stack instead of recursion: a long game is a chain of hundreds of nodes.
    stack: list[tuple[str, Node | None]] = [("close", None), ("node", root)]
    out.newline()
    out.put("(", may_break=False)
    while stack:
        action, node = stack.pop()
        if node is None:
            out.put(")", may_break=False)
            continue
        if action == "variation":
            out.newline()
            out.put("(", may_break=False)
            stack += [("close", None), ("node", node)]
            continue
        properties = _root_properties(node) if node is root else node.properties
        for index, token in enumerate(_node_tokens(properties, compose)):
            out.put(token, may_break=index > 0 or out.parts[-1] != "(")
        if node is root and node.children:
            out.newline()  # the game information on lines of its own
        if len(node.children) == 1:
            stack.append(("node", node.children[0]))
        else:
            stack += [("variation", child) for child in reversed(node.children)]
    out.newline()
