"""JSON views of core game states for the API and realtime events. Teams are numbered from 1 here."""

from __future__ import annotations

from typing import Any

from miai.core.go import GoState, Result, outcome
from miai.core.go.moves import Move, Place
from miai.core.go.vertex import format_move, format_point

AUTO_PASS = "autopass"
AGREED_DRAW = "draw"


def move_text(state: GoState, move: Move, auto: bool = False) -> str:
    return AUTO_PASS if auto else format_move(move, state.size)


def board_view(state: GoState) -> list[int]:
    """Per point (row 0 at the bottom, point = row * size + col): 0 empty, else the team number."""
    return [0 if c is None else c + 1 for c in state.board()]


def result_view(state: GoState, result: Result, dead_stones_judged: bool) -> dict[str, Any]:
    return {
        "reason": result.reason.value,
        "ranking": [[c + 1 for c in group] for group in result.ranking],
        "winners": [c + 1 for c in result.winners],
        "draw": result.is_draw,
        "scores": [
            {
                "team": s.colour + 1,
                "stones": s.stones,
                "territory": s.territory,
                "captures": s.captures,
                "prisoners": s.prisoners,
                "dead": s.dead,
                "komi": s.komi,
                "total": s.total,
            }
            for s in result.scores
        ],
        "territory": [0 if o is None else o + 1 for o in result.owner],
        "dead": [format_point(p, state.size) for p in sorted(result.dead)],
        "dead_stones_judged": dead_stones_judged,
    }


def final_result(
    state: GoState,
    dead: frozenset[int] = frozenset(),
    neutral: frozenset[int] = frozenset(),
    judged: bool | None = None,
) -> dict[str, Any] | None:
    """The result of a finished game with the given dead stones (the estimator's, or an administrator's)."""
    from miai.core.go import DeadStones

    if state.rules.dead_stones is DeadStones.ALL_ALIVE:
        dead, neutral, judged = frozenset(), frozenset(), True
    result = outcome(state, dead=dead, neutral=neutral)
    if result is None:
        return None
    return result_view(state, result, dead_stones_judged=bool(judged))


def last_move_view(state: GoState) -> dict[str, Any] | None:
    if state.last_move is None:
        return None
    point = state.last_move.point if isinstance(state.last_move, Place) else None
    return {
        "team": state.last_colour + 1,
        "seat": state.last_seat,
        "move": move_text(state, state.last_move, state.auto_pass),
        "point": point,
        "captured": [format_point(p, state.size) for p in state.last_removed],
    }


def position_view(state: GoState) -> dict[str, Any]:
    return {
        "kind": "go",
        "size": state.size,
        "board": board_view(state),
        "to_move": None if state.is_over else {"team": state.to_move + 1, "seat": state.to_move_seat},
        "captures": [state.captured_by[c] for c in range(state.colours)],
        "prisoners": [state.lost[c] for c in range(state.colours)],
        "active": [state.active[c] for c in range(state.colours)],
        "passes": state.passes,
        "plies": state.plies,
        "rounds": state.rounds,
        "last": last_move_view(state),
        "over": state.is_over,
    }
