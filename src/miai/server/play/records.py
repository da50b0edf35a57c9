"""A game's SGF record as the server writes it: the moves from the game's state (`Table.sgf`), and from the
stored game what the state cannot say: every player by team and seat, the days it was played (UTC) and
its result, which holds the dead-stone estimator's or an administrator's verdict (docs/sgf.md).
"""

from __future__ import annotations

from collections.abc import Mapping
from datetime import date
from typing import Any

from sqlalchemy.ext.asyncio import AsyncSession

from miai.core.clock import TeamClock
from miai.formats.sgf import encode_dates, encode_real
from miai.formats.sgf.games import VOID
from miai.formats.sgf.go import outcome_value, result_value
from miai.server.play.kinds import GoTable, table_of
from miai.server.play.queries import shown_name
from miai.server.storage import repo
from miai.server.storage.models import Game, GameMove

PLAYED = ("started", "cancelled", "declined")  # events whose day is a day of the game, besides its moves


async def sgf_record(db: AsyncSession, game: Game, state: Any, base_url: str) -> bytes:
    """The record of a started, finished or cancelled game (`state`: its current state)."""
    table = table_of(game.kind, game.options)
    players = sorted(await repo.players_of(db, game.id), key=lambda p: (p.team or 0, p.seat or 0))
    users = await repo.users_by_ids(db, [p.user_id for p in players])
    names: dict[int, list[str]] = {}
    for p in players:
        if p.team is not None and p.user_id in users:  # a computer as "Miai, level 3", not its account
            names.setdefault(p.team, []).append(shown_name(users[p.user_id]))
    moves = await repo.moves_of(db, game.id)
    info = {"GN": f"Miai game {game.id}", "PC": base_url, "DT": encode_dates(await _days(db, game, moves))}
    if game.status == "cancelled":
        info["RE"] = VOID
    elif game.result and isinstance(table, GoTable):  # other kinds' states write their own RE
        info.update(go_result_properties(game.result, table.go.teams))
    clocks = {  # the clock each move left its team, as stored with the move (none before migration 0009)
        m.ply: (m.team, TeamClock(main=m.clock_main, periods=m.clock_periods or 0))
        for m in moves
        if m.clock_main is not None
    }
    return table.sgf(state, info, names, clocks)


async def _days(db: AsyncSession, game: Game, moves: list[GameMove]) -> set[date]:
    """The days (UTC) of the start, every move and the end; a cancelled game's from its creation on."""
    moments = [m.created_at for m in moves]
    for kind in PLAYED:
        event = await repo.last_event(db, game.id, (kind,))
        if event is not None:
            moments.append(event.created_at)
    if game.status == "cancelled" or not moments:
        moments.append(game.created_at)
    return {moment.date() for moment in map(repo.utc, moments) if moment is not None}


def go_result_properties(result: Mapping[str, Any], teams: int) -> dict[str, str]:
    """RE (and MO with more than two colours) from a stored Go result (docs/api.md, Results); colours are
    teams - 1. The record writer uses them when the state cannot score itself (dead_stones=auto)."""
    left = [d for d in result.get("left") or [] if d.get("team_out")]
    gone = {d.get("team") for d in left}
    in_play = [t - 1 for t in range(1, teams + 1) if t not in gone]
    winners = [t - 1 for t in result.get("winners") or []]
    reason = str(result.get("reason"))
    if reason in ("resign", "timeout"):
        how = reason[0].upper()
    elif reason == "last_colour":  # results stored before `resign`/`timeout`: the last team out says how
        how = ("T" if left[-1].get("how") == "timeout" else "R") if left else ""
    else:
        margin = result.get("margin")
        how = encode_real(round(margin, 6)) if isinstance(margin, int | float) and margin else ""
    properties = {"RE": result_value(winners, in_play, how)}
    if teams > 2:
        totals = {s["team"] - 1: s["total"] for s in result.get("scores") or []}
        ranking = [[t - 1 for t in group] for group in result.get("ranking") or []]
        mo_reason = "last_colour" if reason in ("resign", "timeout") else reason
        properties["MO"] = outcome_value(mo_reason, ranking, totals)
    return properties
