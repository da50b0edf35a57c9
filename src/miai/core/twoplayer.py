"""What the two-player games (Amazons, Hex, Tanbo) share: the moves that end a game and their outcomes.

Resign and Timeout are Go's move objects, so a server can end a game of any kind with the same value:
`state.play(RESIGN)` for the player on move, or `state.leave(player, TIMEOUT)` for a named player.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum

from miai.core.errors import IllegalMove, IllegalReason
from miai.core.go.moves import RESIGN, TIMEOUT, Place, Resign, Timeout

__all__ = [
    "RESIGN",
    "TIMEOUT",
    "EndReason",
    "Leave",
    "Outcome",
    "Place",
    "Resign",
    "Timeout",
    "check_player",
    "leave_outcome",
    "not_allowed",
]

Leave = Resign | Timeout


class EndReason(StrEnum):
    """Why a two-player game ended. The string values are stable: the API and the database use them."""

    NO_MOVES = "noMoves"  # Amazons: the player to move cannot move and loses
    CONNECTION = "connection"  # Hex: a chain joins the winner's two edges
    ELIMINATED = "eliminated"  # Tanbo: the loser's last stone was removed
    RESIGN = "resign"
    TIMEOUT = "timeout"
    CAP = "cap"  # Tanbo: the safety ply cap was reached (SPEC T5)


@dataclass(frozen=True, slots=True)
class Outcome:
    """The result of a finished game: the winning player (None for a draw) and why."""

    winner: int | None
    reason: EndReason

    def rewards(self) -> tuple[float, float]:
        if self.winner is None:
            return (0.5, 0.5)
        return (1.0, 0.0) if self.winner == 0 else (0.0, 1.0)


def check_player(player: int) -> None:
    if player not in (0, 1):
        raise IllegalMove(IllegalReason.NOT_ALLOWED, f"there is no player {player} in a two-player game")


def leave_outcome(player: int, move: Leave) -> Outcome:
    """`player` resigned or ran out of time: the other player wins."""
    check_player(player)
    reason = EndReason.TIMEOUT if isinstance(move, Timeout) else EndReason.RESIGN
    return Outcome(1 - player, reason)


def not_allowed(detail: str) -> IllegalMove:
    return IllegalMove(IllegalReason.NOT_ALLOWED, detail)
