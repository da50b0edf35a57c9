"""JSON views of core game states for the API and realtime events. Teams are numbered from 1 here."""

from __future__ import annotations

from typing import Any

from miai.core.go import GoState, Resign, Result, Timeout, outcome
from miai.core.go.moves import Move, Place
from miai.core.go.scoring import EndReason
from miai.core.go.vertex import format_move, format_point
from miai.server.move_texts import AUTO_PASS


def recorded_move(ply: int, team: int, seat: int, move: str, user_id: int | None) -> dict[str, Any]:
    """A recorded move as the API shows it (the snapshot's `moves`, `move` events), for every kind. An agreed
    draw is stored as team 0, seat 0: no team made it, so its `team` and `seat` are null."""
    mover = {"team": team or None, "seat": seat if team else None}
    return {"ply": ply, **mover, "move": move, "user_id": user_id}


def move_text(state: GoState, move: Move, auto: bool = False) -> str:
    return AUTO_PASS if auto else format_move(move, state.size)


def board_view(state: GoState) -> list[int]:
    """Per point (row 0 at the bottom, point = row * size + col): 0 empty, else the team number."""
    return [0 if c is None else c + 1 for c in state.board()]


def departures(state: GoState) -> list[dict[str, Any]]:
    """Every player who resigned or ran out of time, in order: `{"team", "seat", "how", "ply", "team_out"}`.

    `ply` numbers the event as the move list does; `team_out` says whether it took the team out of the game
    (in a team game a teammate may play on)."""
    out = []
    for s in state.lineage():
        if isinstance(s.last_move, Resign | Timeout):
            out.append(
                {
                    "team": s.last_colour + 1,
                    "seat": s.last_seat,
                    "how": "timeout" if isinstance(s.last_move, Timeout) else "resign",
                    "ply": s.plies,
                    "team_out": not s.active[s.last_colour],
                }
            )
    out.reverse()
    return out


def end_reason(reason: EndReason, left: list[dict[str, Any]]) -> str:
    """The API's `reason`: the core's end reason, except that a game won because every other team left says
    how the last of them left (`resign` or `timeout`) instead of the core's `last_colour`."""
    if reason is EndReason.LAST_COLOUR:
        gone = [d for d in left if d["team_out"]]
        if gone:
            return str(gone[-1]["how"])
    return reason.value


def _margin(state: GoState, result: Result) -> float | None:
    """How far the winners are ahead of the best other team still in play; None when nothing was scored."""
    if not result.scores:
        return None
    if result.is_draw:
        return 0.0
    best = result.scores[result.winners[0]].total
    others = [result.scores[c].total for c in state.active_colours if c not in result.winners]
    return round(best - max(others), 2) if others else None


def result_view(
    state: GoState, result: Result, dead_stones_judged: bool, seki: frozenset[int] = frozenset()
) -> dict[str, Any]:
    """The result as JSON (docs/api.md, Results). `seki`: stones the estimator found in seki."""
    left = departures(state)
    scored = bool(result.scores)
    board = state.board()
    # Dame: empty points that count for nobody (shared liberties; eyes in seki where the rules say so).
    dame = [p for p, owner in enumerate(result.owner) if owner is None and board[p] is None]
    return {
        "reason": end_reason(result.reason, left),
        "ranking": [[c + 1 for c in group] for group in result.ranking],
        "winners": [c + 1 for c in result.winners],
        "draw": result.is_draw,
        "margin": _margin(state, result),
        "left": left,
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
        "seki": [format_point(p, state.size) for p in sorted(seki - result.dead)] if scored else [],
        "dame": [format_point(p, state.size) for p in dame],
        "dead_stones_judged": dead_stones_judged,
    }


def final_result(
    state: GoState,
    dead: frozenset[int] = frozenset(),
    neutral: frozenset[int] = frozenset(),
    judged: bool | None = None,
    seki: frozenset[int] = frozenset(),
) -> dict[str, Any] | None:
    """The result of a finished game with the given dead stones, neutral points and stones in seki (the
    estimator's verdict, or an administrator's correction)."""
    from miai.core.go import DeadStones

    if state.rules.dead_stones is DeadStones.ALL_ALIVE:
        dead, neutral, seki, judged = frozenset(), frozenset(), frozenset(), True
    result = outcome(state, dead=dead, neutral=neutral)
    if result is None:
        return None
    return result_view(state, result, dead_stones_judged=bool(judged), seki=seki)


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
