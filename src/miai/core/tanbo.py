"""Tanbo (SPEC §4, decisions T1-T3 and T5): roots that grow one stone at a time and die when bounded.

A stone goes on an empty point touching exactly one friendly stone (orthogonally). Afterwards (§4.3): if the
root of the new stone (the current root) has no root liberty it alone is removed; otherwise every bounded root
of either colour is removed at once. A player whose last stone is removed loses, even on their own move. No
passing. After `cap` plies (2,000 by default) the side with more stones wins, equal counts draw (T5).
Points are Go's: `row * size + col`, row 0 at the bottom, GTP vertices (A-T without I).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from functools import cache

from miai.core.errors import IllegalMove, IllegalReason, InvalidRules
from miai.core.go.vertex import LETTERS, format_point, parse_point
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

BLACK, WHITE = 0, 1
PLAYER_NAMES = ("Black", "White")
SIZE = 19
CAP = 2000  # SPEC T5: a safety net only; the sources say positions never repeat
LAYOUT_SIZES = (19, 9, 13)  # 19 is the standard start (§4.1); 9 and 13 are Giles's layouts, not the default
SMALLEST, LARGEST = 2, len(LETTERS)  # set-up positions of any size are for tests and records

# SPEC §4.1, exactly as listed there (T1: A19 Black, A1 White).
STANDARD_START = {
    BLACK: ("A19", "N19", "G13", "T13", "A7", "N7", "G1", "T1"),
    WHITE: ("G19", "T19", "A13", "N13", "G7", "T7", "A1", "N1"),
}

TanboMove = Place | Resign | Timeout


@cache
def neighbours(size: int) -> tuple[tuple[int, ...], ...]:
    out = []
    for p in range(size * size):
        row, col = divmod(p, size)
        around = ((col - 1, row), (col + 1, row), (col, row - 1), (col, row + 1))
        out.append(tuple(r * size + c for c, r in around if 0 <= c < size and 0 <= r < size))
    return tuple(out)


@cache
def _places(size: int) -> tuple[Place, ...]:
    return tuple(Place(p) for p in range(size * size))


def start_position(size: int = SIZE) -> dict[int, int]:
    """The start of a layout size: §4.1 on 19x19; Giles's alternating lattices on 9x9 and 13x13 (E25).

    Giles puts stones on lines offset + k * step with colours alternating like a checkerboard and White on
    the lattice corner nearest A1; on 9x9 that is White b2 h8, Black h2 b8 (the colouring SPEC §4.1 calls
    unsettled). The same rule on 19x19 gives the standard start, which a test checks.
    """
    if size == SIZE:
        return {parse_point(v, size): player for player, vertices in STANDARD_START.items() for v in vertices}
    lattice = {9: (1, 6, 2), 13: (0, 4, 4)}
    if size not in lattice:
        sizes = ", ".join(str(s) for s in LAYOUT_SIZES)
        raise InvalidRules(f"Tanbo has start layouts for sizes {sizes}, not {size}")
    offset, step, count = lattice[size]
    return {
        (offset + i * step) * size + offset + j * step: BLACK if (i + j) % 2 else WHITE
        for i in range(count)
        for j in range(count)
    }


def parse_move(text: str, size: int = SIZE) -> TanboMove:
    """A Go-style vertex such as `K10` (any case) or `resign`; Tanbo has no pass."""
    word = "".join(text.split()).lower()
    if word == "resign":
        return RESIGN
    if word == "pass":
        raise ValueError("Tanbo has no passing: place a stone (or resign)")
    return _places(size)[parse_point(word, size)]


def format_move(move: TanboMove, size: int = SIZE) -> str:
    if isinstance(move, Place):
        return format_point(move.point, size)
    return type(move).__name__.lower()


# ----------------------------------------------------------------------------- roots


def root_of(cells: bytes | bytearray, size: int, point: int) -> list[int]:
    """The root (orthogonally connected same-coloured stones) through an occupied point."""
    code = cells[point]
    around = neighbours(size)
    seen = {point}
    todo = [point]
    while todo:
        p = todo.pop()
        for q in around[p]:
            if cells[q] == code and q not in seen:
                seen.add(q)
                todo.append(q)
    return sorted(seen)


def is_bounded(cells: bytes | bytearray, size: int, root: list[int]) -> bool:
    """No root liberty: no empty point next to the root touches exactly one stone of the root's colour."""
    code = cells[root[0]]
    around = neighbours(size)
    for s in root:
        for q in around[s]:
            if not cells[q] and sum(1 for m in around[q] if cells[m] == code) == 1:
                return False
    return True


def bounded_roots(cells: bytes | bytearray, size: int) -> list[list[int]]:
    """Every bounded root on the board (a full scan; the invariant says this is empty after a move)."""
    seen: set[int] = set()
    out = []
    for p, code in enumerate(cells):
        if code and p not in seen:
            root = root_of(cells, size, p)
            seen.update(root)
            if is_bounded(cells, size, root):
                out.append(root)
    return out


# ----------------------------------------------------------------------------- the state


@dataclass(frozen=True, slots=True, eq=False)
class TanboState:
    """One Tanbo position and the record that led to it. Immutable: `play` returns a new state."""

    size: int
    cells: bytes  # per point: 0 empty, else player + 1
    to_move: int
    counts: tuple[int, int]  # stones per player
    cap: int = CAP
    plies: int = 0
    outcome: Outcome | None = None
    parent: TanboState | None = None
    last_move: TanboMove | None = None
    last_player: int = -1
    removed: tuple[int, ...] = ()  # the points the last move emptied
    current_root_removed: bool = False  # §4.3 first branch: the new stone's own root was bounded

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

    def legal_points(self, player: int | None = None) -> list[int]:
        """Empty points touching exactly one stone of `player` (default: the player to move), sorted."""
        code = (self.to_move if player is None else player) + 1
        cells = self.cells
        around = neighbours(self.size)
        touching: dict[int, int] = {}
        for p, c in enumerate(cells):
            if c == code:
                for q in around[p]:
                    if not cells[q]:
                        touching[q] = touching.get(q, 0) + 1
        return sorted(q for q, n in touching.items() if n == 1)

    def legal_moves(self) -> list[TanboMove]:
        if self.outcome is not None:
            return []
        places = _places(self.size)
        return [places[p] for p in self.legal_points()]

    def play(self, move: TanboMove) -> TanboState:
        """The state after the player to move makes `move`; IllegalMove (a ValueError) otherwise."""
        if isinstance(move, Resign | Timeout):
            return self.leave(self.to_move, move)
        error = self.analyze(move)
        if error is not None:
            raise error
        assert isinstance(move, Place)
        mover = self.to_move
        size = self.size
        cells = bytearray(self.cells)
        cells[move.point] = mover + 1
        current = root_of(cells, size, move.point)
        current_bounded = is_bounded(cells, size, current)
        # §4.3: a bounded current root dies alone (emptying it gives the roots it bounded their liberty back);
        # a free current root lets every bounded root of either colour die at once.
        doomed = current if current_bounded else self._bounded_near(cells, move.point, set(current))
        counts = [self.counts[0], self.counts[1]]
        counts[mover] += 1
        for p in doomed:
            counts[cells[p] - 1] -= 1
            cells[p] = 0
        outcome = None
        if counts[mover] == 0:
            outcome = Outcome(1 - mover, EndReason.ELIMINATED)
        elif counts[1 - mover] == 0:
            outcome = Outcome(mover, EndReason.ELIMINATED)
        elif self.plies + 1 >= self.cap:
            outcome = Outcome(None if counts[0] == counts[1] else int(counts[1] > counts[0]), EndReason.CAP)
        return TanboState(
            size, bytes(cells), 1 - mover, (counts[0], counts[1]), self.cap, self.plies + 1, outcome, self,
            move, mover, tuple(sorted(doomed)), current_bounded,
        )  # fmt: skip

    def leave(self, player: int, move: Leave) -> TanboState:
        """`player` resigns or runs out of time (on move or not): the other player wins."""
        if self.outcome is not None:
            raise IllegalMove(IllegalReason.GAME_OVER)
        outcome = leave_outcome(player, move)
        return TanboState(
            self.size,
            self.cells,
            self.to_move,
            self.counts,
            self.cap,
            self.plies + 1,
            outcome,
            self,
            move,
            player,
        )

    def analyze(self, move: object) -> IllegalMove | None:
        """The error `play(move)` would raise, or None when the move is legal."""
        if self.outcome is not None:
            return IllegalMove(IllegalReason.GAME_OVER)
        if isinstance(move, Resign | Timeout):
            return None
        if not isinstance(move, Place):
            return not_allowed(f"{move!r} is not a Tanbo move (place a stone, or resign; there is no pass)")
        p = move.point
        if not isinstance(p, int) or not 0 <= p < len(self.cells):
            return IllegalMove(IllegalReason.OFF_BOARD)
        vertex = format_point(p, self.size)
        if self.cells[p]:
            return IllegalMove(IllegalReason.OCCUPIED, f"{vertex} is already occupied")
        friends = sum(1 for q in neighbours(self.size)[p] if self.cells[q] == self.to_move + 1)
        if friends != 1:
            name = PLAYER_NAMES[self.to_move]
            return not_allowed(
                f"{vertex} touches {friends} {name} stones; a new stone must touch exactly one"
            )
        return None

    # --- reading the position and the record

    def stones(self, player: int) -> list[int]:
        return [p for p, code in enumerate(self.cells) if code == player + 1]

    def root(self, point: int) -> list[int]:
        """The root through `point` (empty list for an empty point)."""
        return root_of(self.cells, self.size, point) if self.cells[point] else []

    def moves(self) -> list[tuple[int, TanboMove]]:
        """Every move from the start as (player, move), a final resignation or timeout included."""
        out: list[tuple[int, TanboMove]] = []
        state: TanboState | None = self
        while state is not None and state.last_move is not None:
            out.append((state.last_player, state.last_move))
            state = state.parent
        out.reverse()
        return out

    def start(self) -> TanboState:
        state = self
        while state.parent is not None:
            state = state.parent
        return state

    def diagram(self) -> str:
        """SPEC-style board: rows from the top, `X` Black, `O` White, GTP letters below."""
        size = self.size
        width = len(str(size))
        lines = []
        for row in range(size - 1, -1, -1):
            cells = " ".join(".XO"[self.cells[row * size + col]] for col in range(size))
            lines.append(f"{row + 1:>{width}} {cells}")
        lines.append(" " * (width + 1) + " ".join(LETTERS[:size]))
        return "\n".join(lines)

    def __repr__(self) -> str:
        return f"<TanboState {self.size}x{self.size} plies={self.plies} to_move={self.to_move}>"

    # --- internals

    def _bounded_near(self, cells: bytearray, point: int, seen: set[int]) -> list[int]:
        """Every bounded root after a stone at `point` whose own root is free.

        Before the move no root was bounded, so only roots that lost a liberty can be: a root next to `point`
        (it lost `point`), or a root of the mover's colour next to an empty neighbour of `point` (that
        neighbour now touches one more friendly stone).
        """
        size = self.size
        around = neighbours(size)
        code = cells[point]
        candidates = [q for q in around[point] if cells[q]]
        for q in around[point]:
            if not cells[q]:
                candidates.extend(m for m in around[q] if cells[m] == code)
        doomed: list[int] = []
        for q in candidates:
            if q in seen:
                continue
            root = root_of(cells, size, q)
            seen.update(root)
            if is_bounded(cells, size, root):
                doomed.extend(root)
        return doomed


def new_game(
    size: int = SIZE,
    setup: Mapping[int, int] | None = None,
    to_move: int = BLACK,
    cap: int = CAP,
) -> TanboState:
    """The start layout of `size` (19 standard; 9, 13 Giles), or a set-up position `point -> player`."""
    if not isinstance(size, int) or not SMALLEST <= size <= LARGEST:
        raise InvalidRules(f"Tanbo boards are {SMALLEST}..{LARGEST} points wide, not {size!r}")
    if to_move not in (BLACK, WHITE):
        raise InvalidRules(f"the player to move must be 0 (Black) or 1 (White), not {to_move!r}")
    if not isinstance(cap, int) or cap < 1:
        raise InvalidRules(f"the ply cap must be a positive whole number, not {cap!r}")
    position = start_position(size) if setup is None else dict(setup)
    cells = bytearray(size * size)
    for p, player in position.items():
        if not isinstance(p, int) or not 0 <= p < size * size or player not in (BLACK, WHITE):
            raise InvalidRules(f"set-up stone {player!r} at {p!r} is off the board or of an unknown player")
        cells[p] = player + 1
    bounded = bounded_roots(cells, size)
    if bounded:
        where = format_point(bounded[0][0], size)
        raise InvalidRules(f"the set-up has a bounded root at {where}; every root needs a root liberty")
    counts = (cells.count(BLACK + 1), cells.count(WHITE + 1))
    if counts == (0, 0):
        raise InvalidRules("the set-up has no stones")
    outcome = None
    if 0 in counts:
        outcome = Outcome(BLACK if counts[0] else WHITE, EndReason.ELIMINATED)
    return TanboState(size, bytes(cells), to_move, counts, cap, outcome=outcome)
