"""Hex (SPEC §3, decisions H1-H3): an n×n rhombus; player 0 joins rows 1↔n, player 1 columns a↔last.

Cells are ints `row * size + col` in HexWiki orientation: row 0 is row 1 at the TOP, col 0 is column a, and
a1 is an acute corner (neighbours b1 and a2). The neighbours of (c, r) are (c±1, r), (c, r±1), (c+1, r−1)
and (c−1, r+1). Opening rules: `swap` (stone mirror (c, r) → (r, c), after which the first player moves
again), `centre_row_ban` (odd sizes: the first stone may not go on row (n+1)/2) and `none`. No passing.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, replace
from enum import StrEnum
from functools import cache

from miai.core.errors import IllegalMove, IllegalReason, InvalidRules
from miai.core.twoplayer import (
    RESIGN,
    EndReason,
    Leave,
    Outcome,
    Place,
    Resign,
    Timeout,
    leave_outcome,
    not_allowed,
)

FIRST, SECOND = 0, 1  # FIRST is "vertical" (rows 1↔n), SECOND "horizontal" (columns a↔last)
PLAYER_NAMES = ("Black", "White")  # as in SGF GM[11]: Black connects top and bottom and moves first
OFFERED_SIZES = (11, 13, 19)  # SPEC H1
MIN_SIZE, MAX_SIZE = 5, 19  # any size in this range on request (H1)
SMALLEST, LARGEST = 2, 26  # what the core can play: tiny boards are for perft and tests
LETTERS = "abcdefghijklmnopqrstuvwxyz"  # HexWiki columns: every letter, i included


class Opening(StrEnum):
    SWAP = "swap"
    CENTRE_ROW_BAN = "centre_row_ban"
    NONE = "none"


@dataclass(frozen=True, slots=True)
class Swap:
    """The second player takes over the first stone, mirrored across the long diagonal."""


SWAP = Swap()
HexMove = Place | Swap | Resign | Timeout


@cache
def neighbours(size: int) -> tuple[tuple[int, ...], ...]:
    out = []
    for p in range(size * size):
        r, c = divmod(p, size)
        around = ((c - 1, r), (c + 1, r), (c, r - 1), (c, r + 1), (c + 1, r - 1), (c - 1, r + 1))
        out.append(tuple(y * size + x for x, y in around if 0 <= x < size and 0 <= y < size))
    return tuple(out)


@cache
def _places(size: int) -> tuple[Place, ...]:
    return tuple(Place(p) for p in range(size * size))


def mirror(point: int, size: int) -> int:
    """The cell across the long diagonal a1–nn: (column c, row r) → (column r, row c)."""
    r, c = divmod(point, size)
    return c * size + r


def centre_row(size: int) -> int | None:
    """The 0-based row the centre-row ban forbids: HexWiki row (n+1)/2 on odd sizes, none on even ones."""
    return (size - 1) // 2 if size % 2 else None


# ----------------------------------------------------------------------------- notation


def format_cell(point: int, size: int) -> str:
    r, c = divmod(point, size)
    return f"{LETTERS[c]}{r + 1}"


def parse_cell(text: str, size: int) -> int:
    """'f6' (any case, spaces ignored) -> cell; ValueError with a clear message otherwise."""
    cell = "".join(text.split()).lower()
    if len(cell) < 2 or cell[0] not in LETTERS or not (cell[1:].isascii() and cell[1:].isdigit()):
        raise ValueError(f"{text.strip()!r} is not a Hex cell like f6 (a column letter, then a row from 1)")
    col, row = LETTERS.index(cell[0]), int(cell[1:]) - 1
    if not (col < size and 0 <= row < size):
        raise ValueError(f"{cell} is off the {size}x{size} board")
    return row * size + col


def parse_move(text: str, size: int) -> HexMove:
    """A cell such as `f6`, `swap` (also `swap-pieces`, the SGF word) or `resign`."""
    word = "".join(text.split()).lower()
    if word in ("swap", "swap-pieces"):
        return SWAP
    if word == "resign":
        return RESIGN
    if word == "pass":
        raise ValueError("Hex has no passing: place a stone (or resign)")
    return _places(size)[parse_cell(word, size)]


def format_move(move: HexMove, size: int) -> str:
    if isinstance(move, Place):
        return format_cell(move.point, size)
    return type(move).__name__.lower()


# ----------------------------------------------------------------------------- the state


@dataclass(frozen=True, slots=True, eq=False)
class HexState:
    """One Hex position and the record that led to it. Immutable: `play` returns a new state."""

    size: int
    opening: Opening
    cells: bytes  # per cell: 0 empty, else player + 1
    to_move: int
    plies: int = 0
    outcome: Outcome | None = None
    parent: HexState | None = None
    last_move: HexMove | None = None
    last_player: int = -1

    # --- the common game interface

    @property
    def players(self) -> int:
        return 2

    @property
    def is_over(self) -> bool:
        return self.outcome is not None

    @property
    def winner(self) -> int | None:
        return None if self.outcome is None else self.outcome.winner

    @property
    def reason(self) -> EndReason | None:
        return None if self.outcome is None else self.outcome.reason

    def rewards(self) -> tuple[float, ...]:
        return (0.0, 0.0) if self.outcome is None else self.outcome.rewards()

    def legal_moves(self) -> list[HexMove]:
        """Every empty cell the player to move may take, then `swap` when it is available."""
        if self.outcome is not None:
            return []
        places = _places(self.size)
        banned = self._banned_row()
        size = self.size
        moves: list[HexMove] = [
            places[p]
            for p, code in enumerate(self.cells)
            if not code and (banned is None or p // size != banned)
        ]
        if self.swap_available:
            moves.append(SWAP)
        return moves

    def play(self, move: HexMove) -> HexState:
        """The state after the player to move makes `move`; IllegalMove (a ValueError) otherwise."""
        if isinstance(move, Resign | Timeout):
            return self.leave(self.to_move, move)
        error = self.analyze(move)
        if error is not None:
            raise error
        cells = bytearray(self.cells)
        mover = self.to_move
        if isinstance(move, Swap):
            first = self.cells.index(FIRST + 1)
            cells[first] = 0
            placed = mirror(first, self.size)
            cells[placed] = SECOND + 1
            following = FIRST  # the original first player moves again
        else:
            assert isinstance(move, Place)
            placed = move.point
            cells[placed] = mover + 1
            following = 1 - mover
        state = HexState(
            self.size, self.opening, bytes(cells), following, self.plies + 1, None, self, move, mover
        )
        if state._chain_connects(placed):
            state = replace(state, outcome=Outcome(mover, EndReason.CONNECTION))
        return state

    def leave(self, player: int, move: Leave) -> HexState:
        """`player` resigns or runs out of time (on move or not): the other player wins."""
        if self.outcome is not None:
            raise IllegalMove(IllegalReason.GAME_OVER)
        outcome = leave_outcome(player, move)
        return HexState(
            self.size, self.opening, self.cells, self.to_move, self.plies + 1, outcome, self, move, player
        )

    def analyze(self, move: object) -> IllegalMove | None:
        """The error `play(move)` would raise, or None when the move is legal."""
        if self.outcome is not None:
            return IllegalMove(IllegalReason.GAME_OVER)
        if isinstance(move, Resign | Timeout):
            return None
        if isinstance(move, Swap):
            if self.swap_available:
                return None
            if self.opening is not Opening.SWAP:
                return not_allowed(f"this game's opening rule is {self.opening.value}, which has no swap")
            return not_allowed("swap is only allowed as the second move of the game")
        if not isinstance(move, Place):
            return not_allowed(f"{move!r} is not a Hex move")
        p = move.point
        if not isinstance(p, int) or not 0 <= p < len(self.cells):
            return IllegalMove(IllegalReason.OFF_BOARD)
        if self.cells[p]:
            return IllegalMove(IllegalReason.OCCUPIED, f"{format_cell(p, self.size)} is already taken")
        banned = self._banned_row()
        if banned is not None and p // self.size == banned:
            return not_allowed(f"the first stone may not go on the centre row (row {banned + 1})")
        return None

    @property
    def swap_available(self) -> bool:
        """Swap is the second move only: the first player's single stone on an otherwise fresh board."""
        parent = self.parent
        return (
            self.opening is Opening.SWAP
            and self.outcome is None
            and self.plies == 1
            and isinstance(self.last_move, Place)
            and parent is not None
            and not any(parent.cells)
        )

    # --- reading the position and the record

    def stones(self, player: int) -> list[int]:
        return [p for p, code in enumerate(self.cells) if code == player + 1]

    def connects(self, player: int) -> bool:
        """Whether `player` has a chain joining their two edges anywhere on the board."""
        size = self.size
        starts = range(size) if player == FIRST else range(0, size * size, size)
        return any(self.cells[p] == player + 1 and self._chain_connects(p) for p in starts)

    def moves(self) -> list[tuple[int, HexMove]]:
        """Every move from the start as (player, move), a final resignation or timeout included."""
        out: list[tuple[int, HexMove]] = []
        state: HexState | None = self
        while state is not None and state.last_move is not None:
            out.append((state.last_player, state.last_move))
            state = state.parent
        out.reverse()
        return out

    def start(self) -> HexState:
        state = self
        while state.parent is not None:
            state = state.parent
        return state

    def diagram(self) -> str:
        """Rows from the top, each shifted right by one more space than the last (the rhombus)."""
        size = self.size
        width = len(str(size))
        symbols = ".XO"
        lines = [" " * (width + 1) + " ".join(LETTERS[:size])]
        for r in range(size):
            cells = " ".join(symbols[self.cells[r * size + c]] for c in range(size))
            lines.append(f"{r + 1:>{width}} " + " " * r + cells)
        return "\n".join(lines)

    def __repr__(self) -> str:
        board = f"{self.size}x{self.size} {self.opening.value}"
        return f"<HexState {board} plies={self.plies} to_move={self.to_move}>"

    # --- internals

    def _banned_row(self) -> int | None:
        if (
            self.opening is Opening.CENTRE_ROW_BAN
            and self.plies == 0
            and self.to_move == FIRST
            and not any(self.cells)
        ):
            return centre_row(self.size)
        return None

    def _chain_connects(self, start: int) -> bool:
        """BFS over the chain through `start`: does it touch both of its owner's edges?"""
        cells = self.cells
        code = cells[start]
        size = self.size
        around = neighbours(size)
        vertical = code == FIRST + 1
        low = high = False
        seen = {start}
        todo = [start]
        while todo:
            p = todo.pop()
            line = p // size if vertical else p % size
            low = low or line == 0
            high = high or line == size - 1
            if low and high:
                return True
            for q in around[p]:
                if cells[q] == code and q not in seen:
                    seen.add(q)
                    todo.append(q)
        return False


def new_game(
    size: int = 11,
    opening: Opening | str = Opening.SWAP,
    setup: Mapping[int, int] | None = None,
    to_move: int = FIRST,
) -> HexState:
    """An empty board (or a set-up position `cell -> player`, for tests and records) with an opening rule."""
    if not isinstance(size, int) or not SMALLEST <= size <= LARGEST:
        raise InvalidRules(f"Hex boards are {MIN_SIZE}..{MAX_SIZE} cells wide, not {size!r}")
    try:
        rule = Opening(opening.lower() if isinstance(opening, str) else opening)
    except ValueError:
        known = ", ".join(o.value for o in Opening)
        raise InvalidRules(f"unknown Hex opening rule {opening!r}; known: {known}") from None
    if rule is Opening.CENTRE_ROW_BAN and centre_row(size) is None:
        raise InvalidRules(f"the centre-row ban needs an odd board size, not {size}")
    if to_move not in (FIRST, SECOND):
        raise InvalidRules(f"the player to move must be 0 or 1, not {to_move!r}")
    cells = bytearray(size * size)
    for p, player in (setup or {}).items():
        if not isinstance(p, int) or not 0 <= p < size * size or player not in (FIRST, SECOND):
            raise InvalidRules(f"set-up stone {player!r} at {p!r} is off the board or of an unknown player")
        cells[p] = player + 1
    state = HexState(size, rule, bytes(cells), to_move)
    winners = [player for player in (FIRST, SECOND) if state.connects(player)]
    if winners:
        state = replace(state, outcome=Outcome(winners[0], EndReason.CONNECTION))
    return state
