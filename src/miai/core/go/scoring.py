"""Territory, scores and results (SPEC §1.8, G4, G9, G11, G13).

Dead stones are an input: with `dead_stones=all_alive` none are dead; with `auto` the caller passes the
estimator's verdict (the engines layer provides it), which keeps this module pure.

This module sits below the game state (game.py scores its own finished games with it, `GoState.rewards`):
it reads a state through `Position`, and the reasons a game ends (`EndReason`) are defined here.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from enum import StrEnum
from typing import Protocol

from miai.core.errors import ScoringNeedsJudgement
from miai.core.go.board import Geometry
from miai.core.go.rules import DeadStones, HandicapBonus, Rules, Scoring


class EndReason(StrEnum):
    PASSES = "passes"
    LAST_COLOUR = "last_colour"
    MOVE_LIMIT = "move_limit"
    AGREED_DRAW = "agreed_draw"


class Position(Protocol):
    """What scoring reads of a position: a `GoState`'s board, rules, captures and ending."""

    @property
    def rules(self) -> Rules: ...
    @property
    def colours(self) -> int: ...
    @property
    def geo(self) -> Geometry: ...
    @property
    def captured_by(self) -> tuple[int, ...]: ...
    @property
    def lost(self) -> tuple[int, ...]: ...
    @property
    def handicap(self) -> int: ...
    @property
    def ended(self) -> EndReason | None: ...
    @property
    def eliminated(self) -> tuple[int, ...]: ...
    @property
    def active_colours(self) -> list[int]: ...
    def board(self) -> list[int | None]: ...


@dataclass(frozen=True, slots=True)
class Score:
    """One colour's score and how it is made up."""

    colour: int
    stones: int  # live stones on the board
    territory: int
    captures: int  # capture points (only when the rules award them)
    prisoners: int  # own stones lost to captures (subtracted under territory scoring)
    dead: int  # own stones judged dead (subtracted under territory scoring)
    komi: float
    total: float


@dataclass(frozen=True, slots=True)
class Result:
    """How the game ended and the ranking of every team: groups of tied colours, best first."""

    reason: EndReason
    ranking: tuple[tuple[int, ...], ...]
    scores: tuple[Score, ...] = ()
    owner: tuple[int | None, ...] = ()  # per point: the colour it counts for, or None (neutral)
    dead: frozenset[int] = frozenset()

    @property
    def winners(self) -> tuple[int, ...]:
        return self.ranking[0] if self.ranking else ()

    @property
    def is_draw(self) -> bool:
        return len(self.winners) > 1


def ownership(
    state: Position, dead: Iterable[int] = (), neutral: Iterable[int] = ()
) -> tuple[int | None, ...]:
    """Per point, the colour it counts for: live stones, and regions bordered by exactly one colour.

    A region is the connected set of empty or dead-stone points; it belongs to a colour when every live
    stone bordering it has that colour (the edge is not a colour). Points in `neutral` (eyes in seki under
    territory scoring) never count as territory.
    """
    dead_set = frozenset(dead)
    neutral_set = frozenset(neutral)
    board = state.board()
    neighbours = state.geo.neighbours
    owner: list[int | None] = [None] * len(board)
    seen = [False] * len(board)
    for p, colour in enumerate(board):
        if colour is not None and p not in dead_set:
            owner[p] = colour
            seen[p] = True
    for start in state.geo.points:
        if seen[start]:
            continue
        region = [start]
        seen[start] = True
        border: set[int] = set()
        i = 0
        while i < len(region):
            q = region[i]
            i += 1
            for n in neighbours[q]:
                stone = board[n]
                if stone is not None and n not in dead_set:
                    border.add(stone)
                elif not seen[n]:
                    seen[n] = True
                    region.append(n)
        if len(border) == 1:
            colour = next(iter(border))
            for q in region:
                if q not in neutral_set:
                    owner[q] = colour
    return tuple(owner)


def score(state: Position, dead: Iterable[int] = (), neutral: Iterable[int] = ()) -> tuple[Score, ...]:
    """Every colour's score on the current board with the given dead stones."""
    rules = state.rules
    dead_set = frozenset(dead)
    owner = ownership(state, dead_set, neutral)
    stones = [0] * state.colours
    territory = [0] * state.colours
    dead_count = [0] * state.colours
    for p, stone in enumerate(state.board()):
        if stone is not None:
            if p in dead_set:
                dead_count[stone] += 1
            else:
                stones[stone] += 1
        colour = owner[p]
        if colour is not None and (stone is None or p in dead_set):
            territory[colour] += 1
    out = []
    for c in range(state.colours):
        captures = state.captured_by[c] if rules.capture_points else 0
        komi = rules.komi_of(c) + (_handicap_bonus(state) if c == 1 else 0)
        if rules.scoring is Scoring.TERRITORY:
            total = territory[c] - state.lost[c] - dead_count[c] + captures + komi
        else:
            total = stones[c] + territory[c] + captures + komi
        out.append(Score(c, stones[c], territory[c], captures, state.lost[c], dead_count[c], komi, total))
    return tuple(out)


def _handicap_bonus(state: Position) -> float:
    rules = state.rules
    if state.handicap < 2 or rules.scoring is Scoring.TERRITORY:
        return 0
    if rules.handicap_bonus is HandicapBonus.N:
        return state.handicap
    if rules.handicap_bonus is HandicapBonus.N_MINUS_1:
        return state.handicap - 1
    return 0


def outcome(
    state: Position, dead: Iterable[int] | None = None, neutral: Iterable[int] = ()
) -> Result | None:
    """The result of a finished game, or None while it goes on.

    Games ended by passes or the move limit are scored; under `dead_stones=auto` the estimator's dead
    stones must be given (ScoringNeedsJudgement otherwise). Only active colours can win (G11).
    """
    if state.ended is None:
        return None
    fallen = tuple((c,) for c in reversed(state.eliminated))
    active = state.active_colours
    if state.ended is EndReason.LAST_COLOUR:
        return Result(state.ended, ((*active,), *fallen) if active else fallen)
    if state.ended is EndReason.AGREED_DRAW:
        return Result(state.ended, (tuple(active), *fallen))
    if state.rules.dead_stones is DeadStones.ALL_ALIVE:
        dead = ()
    elif dead is None:
        raise ScoringNeedsJudgement("scoring with dead_stones=auto needs the dead-stone estimator's verdict")
    dead_set = frozenset(dead)
    scores = score(state, dead_set, neutral)
    totals = sorted({scores[c].total for c in active}, reverse=True)
    ranking = tuple(tuple(c for c in active if scores[c].total == t) for t in totals)
    owner = ownership(state, dead_set, neutral)
    return Result(state.ended, (*ranking, *fallen), scores, owner, dead_set)
