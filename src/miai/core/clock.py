"""Time controls as pure data: a per-move limit, optionally with a Fischer or byo-yomi clock per team.

Times are seconds as floats; the caller passes elapsed times in (the core never reads a clock).
"""

from __future__ import annotations

import math
from dataclasses import dataclass, replace
from enum import StrEnum


class ClockMode(StrEnum):
    NONE = "none"  # only the per-move limit
    FISCHER = "fischer"
    BYOYOMI = "byoyomi"


@dataclass(frozen=True, slots=True)
class TimeControl:
    per_move: float  # the longest a single move may take; a timeout counts as resigning
    mode: ClockMode = ClockMode.NONE
    main: float = 0.0  # main time per team (Fischer and byo-yomi)
    increment: float = 0.0  # Fischer: added after each move
    periods: int = 0  # byo-yomi: number of periods
    period: float = 0.0  # byo-yomi: length of each period

    def check(self) -> None:
        if not all(math.isfinite(t) for t in (self.per_move, self.main, self.increment, self.period)):
            raise ValueError("times must be finite numbers of seconds")  # NaN passes every `<=` test below
        if self.per_move <= 0:
            raise ValueError("the time per move must be positive")
        if self.mode is ClockMode.FISCHER and (self.main <= 0 or self.increment < 0):
            raise ValueError("a Fischer clock needs main time > 0 and an increment >= 0")
        if self.mode is ClockMode.BYOYOMI and (self.main < 0 or self.periods < 1 or self.period <= 0):
            raise ValueError("byo-yomi needs main time >= 0, at least one period and a period length > 0")

    def start(self) -> TeamClock:
        return TeamClock(main=self.main, periods=self.periods)


@dataclass(frozen=True, slots=True)
class TeamClock:
    main: float
    periods: int = 0

    def time_left(self, control: TimeControl) -> float:
        """The time the team has for its next move, per-move limit included."""
        if control.mode is ClockMode.FISCHER:
            return min(control.per_move, self.main)
        if control.mode is ClockMode.BYOYOMI:
            return min(control.per_move, self.main + self.periods * control.period)
        return control.per_move

    def after_move(self, control: TimeControl, elapsed: float) -> TeamClock:
        """The clock after a move that took `elapsed` seconds (assumes it was in time)."""
        spent = self.spend(control, elapsed)
        if control.mode is ClockMode.FISCHER:
            return replace(spent, main=spent.main + control.increment)
        return spent

    def spend(self, control: TimeControl, elapsed: float) -> TeamClock:
        """The clock after `elapsed` seconds of thinking, without what a move earns (Fischer's increment):
        what a team keeps when its player on move resigns or times out and a teammate plays on."""
        if math.isnan(elapsed):
            raise ValueError("the elapsed time is not a number")
        elapsed = max(0.0, elapsed)  # a wall clock that stepped back must not give time back
        if control.mode is ClockMode.FISCHER:
            return replace(self, main=max(0.0, self.main - elapsed))
        if control.mode is ClockMode.BYOYOMI:
            if elapsed <= self.main:
                return replace(self, main=self.main - elapsed)
            over = elapsed - self.main
            used = int(over // control.period)  # whole periods used up; a partial one is reset
            return TeamClock(main=0.0, periods=max(0, self.periods - used))
        return self
