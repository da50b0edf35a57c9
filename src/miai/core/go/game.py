"""The Go game state for 2..16 colours: immutable, with incremental chains and Zobrist hashing.

`state.play(move)` returns a new state or raises `IllegalMove`; `state.analyze(move)` says why a move is
illegal without committing it. SPEC §1 is the normative text; the decision ids (G1..G16) are cited inline.
"""

from __future__ import annotations

from array import array
from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass

from miai.core.errors import IllegalMove, IllegalReason, InvalidRules
from miai.core.go.board import SITUATION, ZOBRIST, Geometry, geometry, hash_stones
from miai.core.go.handicap import fixed_handicap
from miai.core.go.history import History
from miai.core.go.moves import PASS, Move, Pass, Place, Resign, Timeout
from miai.core.go.placement import build_position, chain_points, place
from miai.core.go.rules import KoRule, Rules, Suicide
from miai.core.go.scoring import EndReason, outcome

# EndReason is defined beside the scoring that reads it, and public here too: it is `GoState.ended`'s type.
__all__ = ["Analysis", "EndReason", "GoState", "new_game"]


@dataclass(frozen=True, slots=True)
class Analysis:
    """What a move would do, without committing it."""

    legal: bool
    reason: IllegalReason | None = None
    message: str = ""
    captures: tuple[int, ...] = ()  # points emptied by the move (captures, and own stones on suicide)


_OCCUPIED = IllegalMove(IllegalReason.OCCUPIED)


_new_state = object.__new__


class GoState:
    """One position of a Go game plus everything the rules need to continue from it."""

    __slots__ = (
        "_history",
        "_history_len",
        "active",
        "active_mask",
        "auto_pass",
        "captured_by",
        "cells",
        "colours",
        "eliminated",
        "ended",
        "geo",
        "handicap",
        "hash",
        "last_colour",
        "last_move",
        "last_removed",
        "last_seat",
        "lost",
        "parent",
        "passes",
        "plies",
        "prev_hash",
        "round_mask",
        "rounds",
        "rules",
        "seat",
        "seats",
        "size",
        "to_move",
    )

    rules: Rules
    size: int
    colours: int
    geo: Geometry
    cells: array[int]  # the flat position array described in placement.py
    hash: int
    to_move: int
    seats: tuple[tuple[int, ...], ...]
    seat: tuple[int, ...]
    active: tuple[bool, ...]
    active_mask: int
    passes: int
    captured_by: tuple[int, ...]
    lost: tuple[int, ...]
    plies: int
    rounds: int
    round_mask: int
    prev_hash: int
    handicap: int
    ended: EndReason | None
    eliminated: tuple[int, ...]
    parent: GoState | None
    last_move: Move | None
    last_colour: int
    last_seat: int
    last_removed: tuple[int, ...]
    auto_pass: bool
    _history: History
    _history_len: int

    # ----------------------------------------------------------------- construction

    def _copy(self) -> GoState:
        """A child state sharing every field; callers then overwrite what the move changes."""
        new = _new_state(GoState)
        new.rules = self.rules
        new.size = self.size
        new.colours = self.colours
        new.geo = self.geo
        new.cells = self.cells
        new.hash = self.hash
        new.to_move = self.to_move
        new.seats = self.seats
        new.seat = self.seat
        new.active = self.active
        new.active_mask = self.active_mask
        new.passes = self.passes
        new.captured_by = self.captured_by
        new.lost = self.lost
        new.plies = self.plies + 1
        new.rounds = self.rounds
        new.round_mask = self.round_mask
        new.prev_hash = self.prev_hash
        new.handicap = self.handicap
        new.ended = self.ended
        new.eliminated = self.eliminated
        new.parent = self
        new.last_removed = ()
        new.auto_pass = False
        new._history = self._history
        new._history_len = self._history_len
        return new

    # ----------------------------------------------------------------- reading the position

    def colour_at(self, point: int) -> int | None:
        colour = self.cells[point]
        return None if colour < 0 else colour

    def board(self) -> list[int | None]:
        """Per point: the colour of the stone there, or None."""
        return [None if c < 0 else c for c in self.cells[: self.geo.n2]]

    def stones(self, colour: int | None = None) -> list[int]:
        """Points holding a stone (of `colour` if given), in point order."""
        cells = self.cells
        if colour is None:
            return [p for p in self.geo.points if cells[p] >= 0]
        return [p for p in self.geo.points if cells[p] == colour]

    def position(self) -> dict[int, int]:
        cells = self.cells
        return {p: cells[p] for p in self.geo.points if cells[p] >= 0}

    def chain_points(self, point: int) -> list[int]:
        """The stones of the chain through `point` (empty list for an empty point), sorted."""
        if self.cells[point] < 0:
            return []
        return sorted(chain_points(self.cells, self.geo.n2, point))

    def liberties(self, point: int) -> frozenset[int]:
        """The liberties of the chain through `point` (empty set for an empty point)."""
        cells = self.cells
        neighbours = self.geo.neighbours
        return frozenset(n for s in self.chain_points(point) for n in neighbours[s] if cells[n] < 0)

    @property
    def is_over(self) -> bool:
        return self.ended is not None

    @property
    def players(self) -> int:
        return self.colours

    def rewards(self) -> tuple[float, ...]:
        """Per colour: 1 shared among the winners, 0 for the rest (every stone alive; for search)."""
        result = outcome(self, dead=())
        if result is None:
            return (0.0,) * self.colours
        share = 1.0 / len(result.winners)
        return tuple(share if c in result.winners else 0.0 for c in range(self.colours))

    @property
    def active_colours(self) -> list[int]:
        return [c for c in range(self.colours) if self.active[c]]

    @property
    def to_move_seat(self) -> int:
        """The join index, inside the team to move, of the player whose turn it is."""
        return self.seat[self.to_move]

    def moves(self) -> list[tuple[int, Move]]:
        """Every recorded event from the start as (colour, move), auto passes included."""
        out: list[tuple[int, Move]] = []
        state: GoState | None = self
        while state is not None and state.parent is not None:
            if state.last_move is not None:  # an agreed draw ends the game without a move
                out.append((state.last_colour, state.last_move))
            state = state.parent
        out.reverse()
        return out

    def lineage(self) -> Iterator[GoState]:
        """This state and its ancestors, newest first."""
        state: GoState | None = self
        while state is not None:
            yield state
            state = state.parent

    # ----------------------------------------------------------------- playing

    def play(self, move: Move, check_ko: bool = True) -> GoState:
        """The state after the colour to move makes `move` (then any automatic passes, SPEC G6).

        `check_ko=False` lets a ko or superko violation through, for records stored under an older ko rule.
        """
        if self.ended is not None:
            raise IllegalMove(IllegalReason.GAME_OVER)
        state = self._apply(self.to_move, move, check_ko=check_ko)
        while state.ended is None and not state.has_legal_placement(state.to_move):
            state = state._apply(state.to_move, PASS, auto=True)
        return state

    def play_as(self, colour: int, move: Place | Pass, check_ko: bool = True) -> GoState:
        """Record-replay mode (SGF, GTP `play`): `colour` moves now whatever the turn or game end.

        The turn then goes to the colour after `colour`. No automatic passes are inserted. With
        `check_ko=False` a ko or superko violation is let through, so that records which broke the ko rule
        (as some real records do) still load; occupied points and suicide are always refused.
        """
        if not 0 <= colour < self.colours:
            raise IllegalMove(IllegalReason.NOT_ALLOWED, f"there is no colour {colour} in this game")
        if not self.active[colour]:
            raise IllegalMove(IllegalReason.INACTIVE_COLOUR)
        state = self._apply(colour, move, check_ko=check_ko)
        if state.ended in (EndReason.PASSES, EndReason.MOVE_LIMIT) and isinstance(move, Place):
            state.ended = None
        return state

    def analyze(self, move: Move, colour: int | None = None) -> Analysis:
        """Whether `move` is legal for `colour` (default: the colour to move), and why not."""
        colour = self.to_move if colour is None else colour
        if self.ended is not None:
            return Analysis(False, IllegalReason.GAME_OVER, "the game is over")
        if not isinstance(move, Place):
            return Analysis(True)
        try:
            _, _, removed = self._place(colour, move.point)
        except IllegalMove as err:
            return Analysis(False, err.reason, str(err))
        return Analysis(True, captures=tuple(sorted(removed)))

    def is_legal(self, move: Move, colour: int | None = None) -> bool:
        return self.analyze(move, colour).legal

    def legal_points(self, colour: int | None = None) -> list[int]:
        """Every point where `colour` (default: the colour to move) may legally place a stone."""
        colour = self.to_move if colour is None else colour
        if self.ended is not None:
            return []
        return [p for p in self.geo.points if self._placement_ok(colour, p)]

    def legal_moves(self) -> list[Move]:
        """Every legal placement of the colour to move, then pass (resignation is always possible too)."""
        if self.ended is not None:
            return []
        moves: list[Move] = [Place(p) for p in self.legal_points()]
        moves.append(PASS)
        return moves

    def has_legal_placement(self, colour: int) -> bool:
        """Cheap in practice: the first empty point with an empty neighbour is almost always legal."""
        cells = self.cells
        neighbours = self.geo.neighbours
        for p in self.geo.points:
            if cells[p] < 0:
                for n in neighbours[p]:
                    if cells[n] < 0:
                        if self._placement_ok(colour, p):
                            return True
                        break
        return any(self._placement_ok(colour, p) for p in self.geo.points if cells[p] < 0)

    def agreed_draw(self) -> GoState:
        """Every remaining team accepted a draw (SPEC G9): the game ends and ranks them equal."""
        if self.ended is not None:
            raise IllegalMove(IllegalReason.GAME_OVER)
        state = self._copy()
        state.ended = EndReason.AGREED_DRAW
        state.last_move = None
        state.last_colour = -1
        state.last_seat = -1
        return state

    # ----------------------------------------------------------------- internals

    def _next_colour(self, colour: int) -> int:
        n = self.colours
        active = self.active
        for step in range(1, n + 1):
            c = (colour + step) % n
            if active[c]:
                return c
        return colour

    def _apply(self, colour: int, move: Move, auto: bool = False, check_ko: bool = True) -> GoState:
        if isinstance(move, Place):
            cells, new_hash, removed = self._place(colour, move.point, check_ko)
            state = self._copy()
            state.cells = cells
            state.hash = new_hash
            state.prev_hash = self.hash
            state.passes = 0
            if removed:
                state.last_removed = tuple(removed)
                self._count_removed(state, colour, removed)
            ko = self.rules.ko
            if ko is not KoRule.SIMPLE:
                key = new_hash if ko is KoRule.POSITIONAL else new_hash ^ SITUATION[colour]
                state._history = self._history.extended(key, self._history_len)
                state._history_len = self._history_len + 1
            self._end_turn(state, colour)
        elif isinstance(move, Pass):
            state = self._copy()
            state.prev_hash = self.hash
            state.passes = self.passes + 1
            state.auto_pass = auto
            if self.rules.ko is KoRule.SITUATIONAL:
                # G3: the same stones with the other colour to move are a new situation.
                state._history = self._history.extended(self.hash ^ SITUATION[colour], self._history_len)
                state._history_len = self._history_len + 1
            self._end_turn(state, colour)
        elif isinstance(move, Resign | Timeout):
            if colour != self.to_move:
                raise IllegalMove(IllegalReason.NOT_ON_TURN, "players may resign only on their own turn")
            state = self._copy()
            self._leave(state, colour)
        else:
            raise IllegalMove(IllegalReason.NOT_ALLOWED, f"unknown move {move!r}")
        state.last_move = move
        state.last_colour = colour
        state.last_seat = self.seat[colour]
        self._check_end(state)
        return state

    def _history_key(self, board_hash: int, mover: int) -> int | None:
        ko = self.rules.ko
        if ko is KoRule.POSITIONAL:
            return board_hash
        if ko is KoRule.SITUATIONAL:
            return board_hash ^ SITUATION[mover]
        return None

    def _count_removed(self, state: GoState, mover: int, removed: list[int]) -> None:
        lost = list(self.lost)
        taken = 0
        for p in removed:
            # A removed point was either an opponent's stone or, on allowed suicide, the mover's own.
            owner = self.colour_at(p)
            owner = mover if owner is None else owner
            lost[owner] += 1
            if owner != mover:
                taken += 1
        state.lost = tuple(lost)
        if taken:
            captured = list(self.captured_by)
            captured[mover] += taken
            state.captured_by = tuple(captured)

    def _end_turn(self, state: GoState, colour: int) -> None:
        """Advance the team's rotation, the round counter and the colour to move."""
        seats = self.seats[colour]
        if len(seats) > 1:
            current = self.seat[colour]
            following = seats[(seats.index(current) + 1) % len(seats)] if current in seats else seats[0]
            seat = list(self.seat)
            seat[colour] = following
            state.seat = tuple(seat)
        mask = self.round_mask | (1 << colour)
        active_mask = self.active_mask
        if mask & active_mask == active_mask:
            state.rounds = self.rounds + 1
            mask = 0
        state.round_mask = mask
        # Fast path for the usual fixed turn order; _next_colour handles eliminated colours.
        following = colour + 1 if colour + 1 < self.colours else 0
        state.to_move = following if active_mask >> following & 1 else state._next_colour(colour)

    @staticmethod
    def _close_round(state: GoState) -> None:
        if state.round_mask & state.active_mask == state.active_mask:
            state.rounds = state.rounds + 1
            state.round_mask = 0

    def _leave(self, state: GoState, colour: int) -> None:
        """Resignation or timeout of the player on move (SPEC §1.3, G7, G11)."""
        seats = self.seats[colour]
        current = self.seat[colour]
        remaining = tuple(s for s in seats if s != current)
        all_seats = list(self.seats)
        all_seats[colour] = remaining
        state.seats = tuple(all_seats)
        seat = list(self.seat)
        if remaining:
            # The team keeps the move: the next remaining teammate in join order plays now.
            later = [s for s in remaining if s > current]
            seat[colour] = later[0] if later else remaining[0]
            state.seat = tuple(seat)
            return
        seat[colour] = -1
        state.seat = tuple(seat)
        active = list(self.active)
        active[colour] = False
        state.active = tuple(active)
        state.active_mask = self.active_mask & ~(1 << colour)
        state.eliminated = (*self.eliminated, colour)
        state.to_move = state._next_colour(colour)
        if self.rules.remove_inactive_stones:
            self._remove_colour(state, colour)
        self._close_round(state)

    def _remove_colour(self, state: GoState, colour: int) -> None:
        """Take an inactive team's stones off (G11): no capture points, but the position enters history."""
        position = state.position()
        points = [p for p, c in position.items() if c == colour]
        if not points:
            return
        cells, board_hash = build_position(self.geo, {p: c for p, c in position.items() if c != colour})
        state.cells = cells
        state.hash = board_hash
        state.last_removed = tuple(points)
        key = self._history_key(board_hash, colour)
        if key is not None:
            state._history = state._history.extended(key, state._history_len)
            state._history_len = state._history_len + 1

    def _check_end(self, state: GoState) -> None:
        in_play = state.active_mask.bit_count()
        if in_play <= 1:
            state.ended = EndReason.LAST_COLOUR
        elif state.passes >= in_play:
            state.ended = EndReason.PASSES
        elif self.rules.move_limit_rounds is not None and state.rounds >= self.rules.move_limit_rounds:
            state.ended = EndReason.MOVE_LIMIT

    def _placement_ok(self, colour: int, p: int) -> bool:
        """Legality of a placement without building the new position (hot path of move generation)."""
        cells = self.cells
        if cells[p] >= 0:
            return False
        n2 = self.geo.n2
        around = self.geo.neighbours[p]
        has_liberty = False
        captures = False
        for n in around:
            c = cells[n]
            if c < 0:
                has_liberty = True
                continue
            head = cells[n2 + n]
            # Pairs (stone, p) are the chain's only pseudo-liberties at p; any more means another liberty.
            only_p = cells[3 * n2 + head] == sum(1 for m in around if cells[m] >= 0 and cells[n2 + m] == head)
            if c == colour:
                if not only_p:
                    has_liberty = True
            elif only_p:
                captures = True
        if not captures:
            if not has_liberty:
                if self.rules.suicide is Suicide.FORBIDDEN:
                    return False
                return self._is_legal_slow(colour, p)
            ko = self.rules.ko
            if ko is KoRule.SIMPLE:
                return True  # a play that captures nothing cannot recreate the previous board
            key = self._history_key(self.hash ^ ZOBRIST[colour][p], colour)
            return key is None or not self._history.seen(key, self._history_len)
        return self._is_legal_slow(colour, p)

    def _is_legal_slow(self, colour: int, p: int) -> bool:
        try:
            self._place(colour, p)
        except IllegalMove:
            return False
        return True

    def _place(self, colour: int, p: int, check_ko: bool = True) -> tuple[array[int], int, list[int]]:
        """Resolve a play (SPEC §1.5): new cells and hash plus the emptied points, or IllegalMove."""
        cells = self.cells
        if not 0 <= p < self.geo.n2:
            raise IllegalMove(IllegalReason.OFF_BOARD)
        if cells[p] >= 0:
            raise _OCCUPIED
        rules = self.rules
        new_cells, new_hash, removed = place(
            self.geo, cells, self.hash, colour, p, rules.suicide is Suicide.ALLOWED
        )
        ko = rules.ko
        if not check_ko:
            pass
        elif ko is KoRule.SIMPLE:
            if removed and new_hash == self.prev_hash:
                raise IllegalMove(IllegalReason.KO)
        else:
            key = new_hash if ko is KoRule.POSITIONAL else new_hash ^ SITUATION[colour]
            if self._history.seen(key, self._history_len):
                raise IllegalMove(IllegalReason.SUPERKO)
        return new_cells, new_hash, removed

    # ----------------------------------------------------------------- checks used by tests

    def hash_from_scratch(self) -> int:
        return hash_stones(self.position())

    def __repr__(self) -> str:
        size = f"{self.size}x{self.size}"
        return f"<GoState {size} colours={self.colours} plies={self.plies} to_move={self.to_move}>"


def new_game(
    size: int,
    rules: Rules | None = None,
    colours: int = 2,
    seats: Iterable[int] | None = None,
    handicap: int = 0,
    handicap_points: Iterable[int] | None = None,
    setup: Mapping[int, int] | None = None,
    to_move: int | None = None,
) -> GoState:
    """A new game. `seats` gives the number of players of each team (default one each).

    `handicap` places Dgo/GTP fixed stones per `rules.handicap_layout`; `handicap_points` places free
    handicap stones instead. Either way White (colour 1) moves first (SPEC G10). `setup` places arbitrary
    stones (SGF AB/AW); `to_move` overrides who starts.
    """
    rules = rules or Rules()
    rules.check(size, colours)
    geo = geometry(size)
    seat_counts = tuple(seats) if seats is not None else (1,) * colours
    if len(seat_counts) != colours or any(n < 1 for n in seat_counts):
        raise InvalidRules(f"need a player count of at least 1 for each of the {colours} teams")
    position: dict[int, int] = dict(setup or {})
    for p, c in position.items():
        if not 0 <= p < size * size or not 0 <= c < colours:
            raise InvalidRules(f"setup stone {c} at {p} is off the board or of an unknown colour")
    first = 0
    placed_handicap = 0
    if handicap or handicap_points is not None:
        if colours != 2:
            raise InvalidRules("handicap needs exactly two colours (SPEC G10)")
        if handicap_points is not None:
            points = list(handicap_points)
            if len(set(points)) != len(points) or not 2 <= len(points) <= size * size - 1:
                raise InvalidRules("free handicap needs at least 2 distinct points")
        else:
            points = [geo.point(c, r) for c, r in fixed_handicap(size, handicap, rules.handicap_layout)]
        for p in points:
            if not 0 <= p < size * size:
                raise InvalidRules(f"handicap point {p} is off the board")
            position[p] = 0
        placed_handicap = len(points)
        first = 1
    if to_move is not None:
        if not 0 <= to_move < colours:
            raise InvalidRules(f"there is no colour {to_move}")
        first = to_move
    cells, board_hash = build_position(geo, position)
    if any(cells[3 * geo.n2 + cells[geo.n2 + p]] == 0 for p in position):
        raise InvalidRules("the starting position has a chain without liberties")
    # G3: the starting position (empty or with handicap stones) is the first entry of the superko history.
    start_key = board_hash
    if rules.ko is KoRule.SITUATIONAL:
        start_key ^= SITUATION[(first - 1) % colours]
    state = object.__new__(GoState)
    values: dict[str, object] = {
        "rules": rules,
        "size": size,
        "colours": colours,
        "geo": geo,
        "cells": cells,
        "hash": board_hash,
        "to_move": first,
        "seats": tuple(tuple(range(n)) for n in seat_counts),
        "seat": (0,) * colours,
        "active": (True,) * colours,
        "active_mask": (1 << colours) - 1,
        "passes": 0,
        "captured_by": (0,) * colours,
        "lost": (0,) * colours,
        "plies": 0,
        "rounds": 0,
        "round_mask": 0,
        "prev_hash": board_hash,
        "handicap": placed_handicap,
        "ended": None,
        "eliminated": (),
        "parent": None,
        "last_move": None,
        "last_colour": -1,
        "last_seat": -1,
        "last_removed": (),
        "auto_pass": False,
        "_history": History((start_key,)),
        "_history_len": 1,
    }
    for name, value in values.items():
        object.__setattr__(state, name, value)
    return state
