"""The 3×3 shapes that light Monte Carlo playouts favour (hane, cut, edge blocks), as a 65,536-entry table.

These are the shapes of Gelly et al., "Modification of UCT with Patterns in Monte-Carlo Go" (MoGo, 2006),
as later used by Pachi's and michi's light playouts. The centre is the candidate move. Symbols: `X` and `O`
are two different sides, `.` empty, `#` off the board, `x` anything but an `X` stone, `o` anything but an
`O` stone, `?` anything. Every rotation, reflection and swap of the two sides matches too, so the table
does not depend on who is to move; with more than two colours every other colour counts as "the other side".

A neighbourhood is coded in 16 bits, two per neighbour in the order NW N NE W E SW S SE with
0 = empty, 1 = the mover's stone, 2 = another colour's stone, 3 = off the board (see `pattern_code`).
"""

from __future__ import annotations

import itertools

import numpy as np
import numpy.typing as npt

SHAPES: tuple[tuple[str, str, str], ...] = (
    ("XOX", "...", "???"),  # hane: enclosing hane
    ("XO.", "...", "?.?"),  # hane: non-cutting hane
    ("XO?", "X..", "x.?"),  # hane: magari
    (".O.", "X..", "..."),  # katatsuke or diagonal attachment
    ("XO?", "O.o", "?o?"),  # cut: unprotected cut
    ("XO?", "O.X", "???"),  # cut: peeped cut
    ("?X?", "O.O", "ooo"),  # cut: de
    ("OX?", "o.O", "???"),  # cut: keima
    ("X.?", "O.?", "###"),  # edge: chase
    ("OX?", "X.O", "###"),  # edge: block the side cut
    ("?X?", "x.O", "###"),  # edge: block the side connection
    ("?XO", "x.x", "###"),  # edge: sagari
    ("?OX", "X.O", "###"),  # edge: cut
)

_EXPAND = {".": ".", "X": "X", "O": "O", "#": "#", "?": ".XO#", "x": ".O#", "o": ".X#"}
_CODE = {".": 0, "X": 1, "O": 2, "#": 3}


def _symmetries(shape: tuple[str, str, str]) -> list[tuple[str, str, str]]:
    grid = [list(row) for row in shape]
    out = []
    for _ in range(4):
        grid = [list(row) for row in zip(*grid[::-1], strict=True)]  # rotate 90°
        for flipped in (grid, [row[::-1] for row in grid]):
            out.append(tuple("".join(row) for row in flipped))
    return out  # type: ignore[return-value]


def _swap(shape: tuple[str, str, str]) -> tuple[str, str, str]:
    table = str.maketrans("XOxo", "OXox")
    return (shape[0].translate(table), shape[1].translate(table), shape[2].translate(table))


def neighbourhood_codes(shape: tuple[str, str, str]) -> set[int]:
    """Every 16-bit neighbourhood code that `shape` matches, in any orientation and either colouring."""
    codes: set[int] = set()
    for variant in _symmetries(shape) + _symmetries(_swap(shape)):
        cells = variant[0] + variant[1][0] + variant[1][2] + variant[2]  # NW N NE W E SW S SE
        for concrete in itertools.product(*(_EXPAND[c] for c in cells)):
            code = 0
            for symbol in concrete:
                code = code * 4 + _CODE[symbol]
            codes.add(code)
    return codes


def pattern_table() -> npt.NDArray[np.uint8]:
    table = np.zeros(1 << 16, dtype=np.uint8)
    for shape in SHAPES:
        for code in neighbourhood_codes(shape):
            table[code] = 1
    return table


PATTERNS = pattern_table()
