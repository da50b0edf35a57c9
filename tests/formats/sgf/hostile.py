"""Hostile SGF bodies built to cost a reader as much as possible (test_sgf_limits.py, the upload tests)."""

from __future__ import annotations

import itertools
import string

MIB = 1024 * 1024  # the largest upload


def fill(head: bytes, unit: bytes, tail: bytes = b")", size: int = MIB) -> bytes:
    """`head`, `unit` repeated, `tail`: at most `size` bytes."""
    return head + unit * ((size - len(head) - len(tail)) // len(unit)) + tail


def rectangles(size: int, budget: int = MIB) -> bytes:
    """Distinct rectangles `[ab:cd]` of a size x size board, as many as fit in `budget` bytes, none on the
    last row or column: together they never fill the board."""
    letters = string.ascii_lowercase[: size - 1]
    values = (f"[{a}{b}:{c}{d}]".encode() for a, b, c, d in itertools.product(letters, repeat=4))
    return b"".join(itertools.islice(values, budget // 7))


def identifiers(count: int) -> bytes:
    """`AAAA[]AAAB[]...`: `count` distinct properties of one node."""
    names = ("".join(letters) for letters in itertools.product(string.ascii_uppercase, repeat=4))
    return b"".join(name.encode() + b"[]" for name in itertools.islice(names, count))


# 150,000 copies of the rectangle of all 25x25 points but the last row: 600 black stones.
REPEATED = {
    "the property repeated": fill(b"(;GM[1]SZ[25]", b"AB[aa:yx]"),  # its values are merged
    "the value repeated": fill(b"(;GM[1]SZ[25]AB", b"[aa:yx]"),
}
