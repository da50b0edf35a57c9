"""Who may read what in a game: the one privacy rule for chat and events, in snapshots, `/events` and
websockets alike.

Every stored event and chat message carries an audience: `all`, `team:N` (one team's chat), `teams:A,B`
(two teams' private messages), `users:a,b` (two players' private messages) or `nobody` (server notices no
viewer sees as events). Private audiences are readable only while the game is not finished (private chat is
closed and hidden at the end; public chat stays).
"""

from __future__ import annotations

from dataclasses import dataclass

EVERYONE = "all"
NOBODY = "nobody"


def team_audience(team: int) -> str:
    return f"team:{team}"


def teams_audience(team: int, other: int) -> str:
    low, high = sorted((team, other))
    return f"teams:{low},{high}"


def users_audience(user_id: int, other: int) -> str:
    low, high = sorted((user_id, other))
    return f"users:{low},{high}"


@dataclass(frozen=True)
class Reader:
    """One viewer of one game: their user id and team there (either may be None), and whether it is over."""

    user_id: int | None
    team: int | None
    game_over: bool = False

    def may_read(self, audience: str) -> bool:
        if audience == EVERYONE:
            return True
        if self.game_over:
            return False
        kind, _, value = audience.partition(":")
        members = value.split(",")
        if kind == "team":
            return self.team is not None and members == [str(self.team)]
        if kind == "teams":
            return self.team is not None and str(self.team) in members
        if kind == "users":
            return self.user_id is not None and str(self.user_id) in members
        return False  # `nobody`, or anything unknown
