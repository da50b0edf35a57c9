"""Clock data a GTP controller sends (time_settings, kgs-time_settings, time_left), and how much of it to
spend on one move.

The engine never reads a clock itself: it only remembers what the controller said, and the budget it
derives is passed to the move generator.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum

__all__ = ["ClockKind", "GtpClock", "TimeLeft", "TimeSettings"]

# Spread main time over this many of our own moves at least, so an early long think cannot flag us.
_MIN_MOVES_LEFT = 20
# Keep a margin for the controller's and the network's share of each move's time.
_SAFETY = 0.9


class ClockKind(StrEnum):
    NONE = "none"  # no time limit
    ABSOLUTE = "absolute"  # main time only
    CANADIAN = "canadian"  # main time, then `stones` moves per period (GTP's time_settings)
    BYOYOMI = "byoyomi"  # main time, then `periods` periods of `period` seconds each (KGS)


@dataclass(frozen=True, slots=True)
class TimeSettings:
    kind: ClockKind = ClockKind.NONE
    main: float = 0.0
    period: float = 0.0
    stones: int = 0  # Canadian: moves per period; Japanese byo-yomi: number of periods


@dataclass(frozen=True, slots=True)
class TimeLeft:
    seconds: float
    stones: int  # 0: still in main time (or absolute); otherwise moves (or periods) left in this phase


class GtpClock:
    """Per-colour time left, as last told by the controller."""

    def __init__(self) -> None:
        self.settings = TimeSettings()
        self.left: dict[int, TimeLeft] = {}

    def set_canadian(self, main: float, period: float, stones: int) -> None:
        """GTP time_settings; byo-yomi time > 0 with 0 stones means no time limit (GTP spec 4.2)."""
        if period > 0 and stones == 0:
            self.configure(TimeSettings())
        elif period == 0 and stones == 0:
            self.configure(TimeSettings(ClockKind.ABSOLUTE, main))
        else:
            self.configure(TimeSettings(ClockKind.CANADIAN, main, period, stones))

    def configure(self, settings: TimeSettings) -> None:
        self.settings = settings
        self.left = {}

    def set_left(self, colour: int, seconds: float, stones: int) -> None:
        self.left[colour] = TimeLeft(seconds, stones)

    def budget(self, colour: int, empty_points: int) -> float | None:
        """Seconds to spend on `colour`'s next move, or None without a time limit."""
        settings = self.settings
        if settings.kind is ClockKind.NONE:
            return None
        left = self.left.get(colour)
        if left is None:  # no time_left yet: the full main time (or the first period) is available
            left = TimeLeft(settings.main, 0) if settings.main > 0 else self._first_period()
        if left.stones > 0:  # inside a byo-yomi phase
            if settings.kind is ClockKind.BYOYOMI:
                return max(0.0, _SAFETY * left.seconds)  # each period renews: use most of it
            return max(0.0, _SAFETY * left.seconds / left.stones)
        moves_left = max(_MIN_MOVES_LEFT, empty_points // 3)
        share = left.seconds / moves_left
        if settings.kind in (ClockKind.CANADIAN, ClockKind.BYOYOMI) and settings.stones > 0:
            share += self._period_share()
        return max(0.0, _SAFETY * share)

    def _first_period(self) -> TimeLeft:
        settings = self.settings
        if settings.kind in (ClockKind.CANADIAN, ClockKind.BYOYOMI):
            return TimeLeft(settings.period, max(1, settings.stones))
        return TimeLeft(0.0, 0)

    def _period_share(self) -> float:
        """A small advance on byo-yomi while still in main time (a fraction of one move's period)."""
        settings = self.settings
        if settings.kind is ClockKind.CANADIAN:
            return settings.period / settings.stones / 4
        return settings.period / 4
