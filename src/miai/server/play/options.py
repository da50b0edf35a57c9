"""Game options as chosen by the creator: validated once, stored as JSON, turned into core rules."""

from __future__ import annotations

from dataclasses import asdict, dataclass, replace
from typing import Any

from miai.core.clock import ClockMode, TimeControl
from miai.core.errors import InvalidRules
from miai.core.go import GoState, KoRule, Rules, new_game, preset
from miai.core.go.rules import MAX_SIZE, MIN_SIZE

MAX_TEAMS = 8
MAX_PLAYERS_PER_TEAM = 8
MIN_MOVE_SECONDS = 2
MAX_MOVE_SECONDS = 30 * 24 * 3600


class OptionsError(ValueError):
    """Options a game cannot be created with; the message says which and why."""


@dataclass(frozen=True)
class GoOptions:
    size: int = 9
    teams: int = 2
    players_per_team: int = 1
    preset: str = ""  # empty: "dgo" for two colours, "dipgo" for more
    komi: tuple[float, ...] | None = None  # one value (White) for two colours, or one per colour
    ko: str | None = None
    capture_points: bool | None = None
    remove_inactive_stones: bool | None = None
    move_limit: int | None = None  # rounds
    handicap: int = 0
    seconds_per_move: float = 86400
    clock: str = "none"  # none | fischer | byoyomi
    main_time: float = 0
    increment: float = 0
    periods: int = 0
    period_time: float = 0
    visibility: str = "public"
    mode: str = (
        "standard"  # standard | computer (one player against the computer) | local (two at one screen)
    )
    level: int | str | None = None  # the computer's level in `computer` mode

    @property
    def practice(self) -> bool:
        """Computer and local games: undo, redo and stepping through the game are allowed."""
        return self.mode in {"computer", "local"}

    @property
    def preset_key(self) -> str:
        return self.preset or ("dgo" if self.teams == 2 else "dipgo")

    @property
    def seats(self) -> int:
        return self.teams * self.players_per_team

    def time_control(self) -> TimeControl:
        return TimeControl(
            per_move=self.seconds_per_move,
            mode=ClockMode(self.clock),
            main=self.main_time,
            increment=self.increment,
            periods=self.periods,
            period=self.period_time,
        )

    def rules(self) -> Rules:
        single = self.komi[0] if self.komi is not None and len(self.komi) == 1 else None
        try:
            rules = preset(self.preset_key, self.size, self.teams, self.handicap, single)
        except InvalidRules as err:
            raise OptionsError(str(err)) from None
        changes: dict[str, Any] = {}
        if self.komi is not None and len(self.komi) > 1:
            if len(self.komi) != self.teams:
                raise OptionsError(f"give one komi value per colour ({self.teams}), not {len(self.komi)}")
            changes["komi"] = tuple(float(k) for k in self.komi)
        if self.ko is not None:
            try:
                changes["ko"] = KoRule(self.ko)
            except ValueError:
                raise OptionsError(
                    f"unknown ko rule {self.ko!r}; use simple, positional or situational"
                ) from None
        if self.capture_points is not None:
            changes["capture_points"] = self.capture_points
        if self.remove_inactive_stones is not None:
            changes["remove_inactive_stones"] = self.remove_inactive_stones
        if self.move_limit is not None:
            changes["move_limit_rounds"] = self.move_limit
        rules = replace(rules, **changes)
        try:
            rules.check(self.size, self.teams)
        except InvalidRules as err:
            raise OptionsError(str(err)) from None
        return rules

    def new_state(self) -> GoState:
        try:
            return new_game(
                self.size,
                self.rules(),
                colours=self.teams,
                seats=(self.players_per_team,) * self.teams,
                handicap=self.handicap,
            )
        except InvalidRules as err:
            raise OptionsError(str(err)) from None

    def validate(self) -> GoOptions:
        if not MIN_SIZE <= self.size <= MAX_SIZE:
            raise OptionsError(f"board size must be {MIN_SIZE}..{MAX_SIZE}")
        if not 2 <= self.teams <= MAX_TEAMS:
            raise OptionsError(f"a game has 2..{MAX_TEAMS} teams")
        if not 1 <= self.players_per_team <= MAX_PLAYERS_PER_TEAM:
            raise OptionsError(f"a team has 1..{MAX_PLAYERS_PER_TEAM} players")
        if self.mode not in {"standard", "computer", "local"}:
            raise OptionsError("mode is standard, computer or local")
        if self.visibility not in {"public", "private"}:
            raise OptionsError("visibility is public or private")
        if not MIN_MOVE_SECONDS <= self.seconds_per_move <= MAX_MOVE_SECONDS:
            raise OptionsError(f"time per move must be {MIN_MOVE_SECONDS} s .. 30 days")
        if self.handicap and self.teams != 2:
            raise OptionsError("handicap needs exactly two teams")
        try:
            self.time_control().check()
        except ValueError as err:
            raise OptionsError(str(err)) from None
        self.new_state()  # refuses impossible rule combinations with the core's own message
        return self

    def to_json(self) -> dict[str, Any]:
        data = asdict(self)
        data["komi"] = list(self.komi) if self.komi is not None else None
        data["preset"] = self.preset_key
        return data

    @staticmethod
    def from_json(data: dict[str, Any]) -> GoOptions:
        known = {k: v for k, v in data.items() if k in GoOptions.__dataclass_fields__}
        if known.get("komi") is not None:
            known["komi"] = tuple(known["komi"])
        return GoOptions(**known)
