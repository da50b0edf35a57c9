"""Amazons (SPEC §2, decisions A1 and A2): 10x10, White (a4 d1 g1 j4) moves first.

A turn moves one queen like a chess queen and then shoots an arrow, again like a queen, from where it
landed; the arrow may pass through or land on the square just left. The player to move with no legal move
loses. Squares are ints `row * size + col`, row 0 = rank 1 at the bottom, col 0 = file a (chess-like).
Notation `a4-d4/d7` (canonical), also `a4-d4,d7`; any case, whitespace ignored.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass, replace
from functools import cache
from typing import NamedTuple

from miai.core.errors import IllegalMove, IllegalReason, InvalidRules
from miai.core.twoplayer import RESIGN, EndReason, Leave, Outcome, Resign, Timeout, leave_outcome, not_allowed

WHITE, BLACK = 0, 1
PLAYER_NAMES = ("White", "Black")
EMPTY, ARROW = 0, 3  # cell codes; a queen of player p is p + 1
SIZE = 10
MIN_SIZE, MAX_SIZE = 3, 26  # files a..z; sizes other than 10 exist for tests and set-up positions
FILES = "abcdefghijklmnopqrstuvwxyz"
START = {WHITE: ("a4", "d1", "g1", "j4"), BLACK: ("a7", "d10", "g10", "j7")}  # SPEC §2.1


class QueenMove(NamedTuple):
    """Move the queen on `frm` to `to`, then shoot an arrow to `arrow`."""

    frm: int
    to: int
    arrow: int


AmazonsMove = QueenMove | Resign | Timeout

_DIRECTIONS = ((1, 0), (-1, 0), (0, 1), (0, -1), (1, 1), (1, -1), (-1, 1), (-1, -1))


@cache
def rays(size: int) -> tuple[tuple[tuple[int, ...], ...], ...]:
    """Per square, the non-empty rays in the 8 queen directions, nearest square first."""
    out = []
    for p in range(size * size):
        row, col = divmod(p, size)
        mine = []
        for dc, dr in _DIRECTIONS:
            ray = []
            c, r = col + dc, row + dr
            while 0 <= c < size and 0 <= r < size:
                ray.append(r * size + c)
                c, r = c + dc, r + dr
            if ray:
                mine.append(tuple(ray))
        out.append(tuple(mine))
    return tuple(out)


# ----------------------------------------------------------------------------- notation


def format_square(point: int, size: int = SIZE) -> str:
    row, col = divmod(point, size)
    return f"{FILES[col]}{row + 1}"


def parse_square(text: str, size: int = SIZE) -> int:
    """'d4' (any case, spaces ignored) -> square; ValueError with a clear message otherwise."""
    square = "".join(text.split()).lower()
    if len(square) < 2 or square[0] not in FILES or not (square[1:].isascii() and square[1:].isdigit()):
        raise ValueError(f"{text.strip()!r} is not a square like d4 (a file letter, then a rank from 1)")
    col, row = FILES.index(square[0]), int(square[1:]) - 1
    if not (col < size and 0 <= row < size):
        raise ValueError(f"{square} is off the {size}x{size} board")
    return row * size + col


_MOVE = re.compile(r"([a-z]\d+)[-–]([a-z]\d+)[/,]([a-z]\d+)")


def parse_move(text: str, size: int = SIZE) -> AmazonsMove:
    """`a4-d4/d7` or `a4-d4,d7` (any case, whitespace ignored), or `resign`."""
    compact = "".join(text.split()).lower()
    if compact == "resign":
        return RESIGN
    match = _MOVE.fullmatch(compact)
    if match is None:
        raise ValueError(
            f"{text.strip()!r} is not an Amazons move: write from-to/arrow, e.g. a4-d4/d7 (or a4-d4,d7)"
        )
    frm, to, arrow = (parse_square(part, size) for part in match.groups())
    return QueenMove(frm, to, arrow)


def format_move(move: AmazonsMove, size: int = SIZE) -> str:
    if isinstance(move, QueenMove):
        frm, to, arrow = (format_square(p, size) for p in move)
        return f"{frm}-{to}/{arrow}"
    return type(move).__name__.lower()


# ----------------------------------------------------------------------------- the state


@dataclass(frozen=True, slots=True, eq=False)
class AmazonsState:
    """One Amazons position and the record that led to it. Immutable: `play` returns a new state."""

    size: int
    cells: bytes  # per square: EMPTY, ARROW or a queen (player + 1)
    to_move: int
    plies: int = 0
    outcome: Outcome | None = None
    parent: AmazonsState | None = None
    last_move: AmazonsMove | None = None
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

    def legal_moves(self) -> list[QueenMove]:
        """Every queen move plus arrow of the player to move (resignation is always possible too)."""
        if self.outcome is not None:
            return []
        cells = self.cells
        all_rays = rays(self.size)
        queen = self.to_move + 1
        out: list[QueenMove] = []
        append = out.append
        for frm, code in enumerate(cells):
            if code != queen:
                continue
            for ray in all_rays[frm]:
                for to in ray:
                    if cells[to]:
                        break
                    for shot in all_rays[to]:
                        for arrow in shot:
                            if cells[arrow] and arrow != frm:
                                break
                            append(QueenMove(frm, to, arrow))
        return out

    def play(self, move: AmazonsMove) -> AmazonsState:
        """The state after the player to move makes `move`; IllegalMove (a ValueError) otherwise."""
        if isinstance(move, Resign | Timeout):
            return self.leave(self.to_move, move)
        error = self.analyze(move)
        if error is not None:
            raise error
        assert isinstance(move, QueenMove)
        cells = bytearray(self.cells)
        cells[move.frm] = EMPTY
        cells[move.to] = self.to_move + 1
        cells[move.arrow] = ARROW
        following = 1 - self.to_move
        state = AmazonsState(
            self.size, bytes(cells), following, self.plies + 1, None, self, move, self.to_move
        )
        if not state.can_move(following):
            state = replace(state, outcome=Outcome(self.to_move, EndReason.NO_MOVES))
        return state

    def leave(self, player: int, move: Leave) -> AmazonsState:
        """`player` resigns or runs out of time (on move or not): the other player wins."""
        if self.outcome is not None:
            raise IllegalMove(IllegalReason.GAME_OVER)
        outcome = leave_outcome(player, move)
        return AmazonsState(self.size, self.cells, self.to_move, self.plies + 1, outcome, self, move, player)

    # --- reasons and partial moves (what a UI needs while the player clicks)

    def analyze(self, move: object) -> IllegalMove | None:
        """The error `play(move)` would raise, or None when the move is legal. Checks in SPEC §2.2 order."""
        if self.outcome is not None:
            return IllegalMove(IllegalReason.GAME_OVER)
        if isinstance(move, Resign | Timeout):
            return None
        if not isinstance(move, QueenMove):
            return not_allowed(f"{move!r} is not an Amazons move")
        n2 = self.size * self.size
        if not all(isinstance(p, int) and 0 <= p < n2 for p in move):
            return IllegalMove(IllegalReason.OFF_BOARD, "a square of that move is not on the board")
        name = PLAYER_NAMES[self.to_move]
        if self.cells[move.frm] != self.to_move + 1:
            return not_allowed(f"{self._sq(move.frm)} does not hold one of {name}'s queens")
        problem = self._path_problem(move.frm, move.to, move.frm, "queen")
        if problem is None:
            problem = self._path_problem(move.to, move.arrow, move.frm, "arrow")
        return problem

    def queen_destinations(self, frm: int) -> list[int]:
        """Squares the queen on `frm` (of the player to move) can move to; empty if there is none."""
        if self.outcome is not None or not 0 <= frm < len(self.cells) or self.cells[frm] != self.to_move + 1:
            return []
        return self._reach(frm, vacated=-1)

    def arrow_targets(self, frm: int, to: int) -> list[int]:
        """Squares the arrow can reach after the queen moved from `frm` to `to` (empty if that is illegal)."""
        if to not in self.queen_destinations(frm):
            return []
        return self._reach(to, vacated=frm)

    def can_move(self, player: int) -> bool:
        """Whether `player` has a legal move: a queen that can move can always shoot back onto the square
        it left, so one queen with an empty neighbour suffices (SPEC §2.1)."""
        cells = self.cells
        queen = player + 1
        all_rays = rays(self.size)
        return any(
            code == queen and any(cells[ray[0]] == EMPTY for ray in all_rays[p])
            for p, code in enumerate(cells)
        )

    # --- reading the position and the record

    def queens(self, player: int) -> list[int]:
        return [p for p, code in enumerate(self.cells) if code == player + 1]

    def arrows(self) -> list[int]:
        return [p for p, code in enumerate(self.cells) if code == ARROW]

    def moves(self) -> list[tuple[int, AmazonsMove]]:
        """Every move from the start as (player, move), a final resignation or timeout included."""
        out: list[tuple[int, AmazonsMove]] = []
        state: AmazonsState | None = self
        while state is not None and state.last_move is not None:
            out.append((state.last_player, state.last_move))
            state = state.parent
        out.reverse()
        return out

    def start(self) -> AmazonsState:
        """The position the game started from."""
        state = self
        while state.parent is not None:
            state = state.parent
        return state

    def diagram(self) -> str:
        """SPEC-style board: ranks from the top, `W`/`B` queens, `x` arrows, files below."""
        size = self.size
        width = len(str(size))
        symbols = ".WBx"
        lines = []
        for row in range(size - 1, -1, -1):
            cells = " ".join(symbols[self.cells[row * size + col]] for col in range(size))
            lines.append(f"{row + 1:>{width}} {cells}")
        lines.append(" " * (width + 1) + " ".join(FILES[:size]))
        return "\n".join(lines)

    def __repr__(self) -> str:
        return f"<AmazonsState {self.size}x{self.size} plies={self.plies} to_move={self.to_move}>"

    # --- internals

    def _sq(self, point: int) -> str:
        return format_square(point, self.size)

    def _reach(self, origin: int, vacated: int) -> list[int]:
        cells = self.cells
        out = []
        for ray in rays(self.size)[origin]:
            for p in ray:
                if cells[p] and p != vacated:
                    break
                out.append(p)
        return out

    def _path_problem(self, a: int, b: int, vacated: int, piece: str) -> IllegalMove | None:
        """Why `piece` cannot travel from a to b in a straight line through empty squares, or None."""
        size = self.size
        (ra, ca), (rb, cb) = divmod(a, size), divmod(b, size)
        dr, dc = rb - ra, cb - ca
        if (dr, dc) == (0, 0) or not (dr == 0 or dc == 0 or abs(dr) == abs(dc)):
            return not_allowed(f"the {piece} cannot go from {self._sq(a)} to {self._sq(b)}: not a queen line")
        step_r, step_c = (dr > 0) - (dr < 0), (dc > 0) - (dc < 0)
        r, c = ra + step_r, ca + step_c
        while (r, c) != (rb, cb):
            p = r * size + c
            if self.cells[p] and p != vacated:
                return not_allowed(
                    f"the {piece}'s path from {self._sq(a)} to {self._sq(b)} is blocked at {self._sq(p)}"
                )
            r, c = r + step_r, c + step_c
        if self.cells[b] and b != vacated:
            return IllegalMove(
                IllegalReason.OCCUPIED, f"the {piece} cannot land on {self._sq(b)}: it is occupied"
            )
        return None


def new_game(
    size: int = SIZE,
    white: Iterable[int] | None = None,
    black: Iterable[int] | None = None,
    arrows: Iterable[int] = (),
    to_move: int = WHITE,
) -> AmazonsState:
    """The standard start (size 10), or a set-up position: queens per player, arrows, the player to move."""
    if not isinstance(size, int) or not MIN_SIZE <= size <= MAX_SIZE:
        raise InvalidRules(f"Amazons boards are {MIN_SIZE}..{MAX_SIZE} squares wide, not {size!r}")
    if (white is None or black is None) and size != SIZE:
        raise InvalidRules(
            f"the standard Amazons start needs a {SIZE}x{SIZE} board; give the queens for {size}"
        )
    if to_move not in (WHITE, BLACK):
        raise InvalidRules(f"the player to move must be 0 (White) or 1 (Black), not {to_move!r}")
    queens = {
        WHITE: [parse_square(s) for s in START[WHITE]] if white is None else list(white),
        BLACK: [parse_square(s) for s in START[BLACK]] if black is None else list(black),
    }
    cells = bytearray(size * size)
    for code, points in ((WHITE + 1, queens[WHITE]), (BLACK + 1, queens[BLACK]), (ARROW, list(arrows))):
        for p in points:
            if not isinstance(p, int) or not 0 <= p < size * size:
                raise InvalidRules(f"set-up square {p!r} is not on the {size}x{size} board")
            if cells[p]:
                raise InvalidRules(f"set-up square {format_square(p, size)} is given twice")
            cells[p] = code
    state = AmazonsState(size, bytes(cells), to_move)
    if not state.can_move(to_move):
        state = replace(state, outcome=Outcome(1 - to_move, EndReason.NO_MOVES))
    return state
