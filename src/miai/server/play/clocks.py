"""Team clocks as stored in `games.clocks`: {"<team>": {"main": seconds, "periods": n}}."""

from __future__ import annotations

from typing import Any

from miai.core.clock import TeamClock, TimeControl


def clock_json(clock: TeamClock) -> dict[str, Any]:
    return {"main": clock.main, "periods": clock.periods}


def clock_from(data: dict[str, Any]) -> TeamClock:
    return TeamClock(main=float(data.get("main", 0.0)), periods=int(data.get("periods", 0)))


def starting_clocks(control: TimeControl, teams: int) -> dict[str, Any]:
    return {str(team): clock_json(control.start()) for team in range(1, teams + 1)}
