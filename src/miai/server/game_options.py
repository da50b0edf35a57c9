"""Game options as chosen by the creator: validated once, stored as JSON, turned into core rules.

`GoOptions` are Go's (rules presets, komi, handicap, ...); `KindOptions` serve every other registered kind,
whose own options (size, Hex's opening, ...) are the `Offer`s of its `GameKind`. Both share the table
options: teams and seats, time limits and clocks, visibility, and the practice mode.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import asdict, dataclass, field, replace
from typing import Any

import miai.core.games  # noqa: F401  (registers the game kinds)
from miai.core.clock import ClockMode, TimeControl
from miai.core.errors import InvalidRules
from miai.core.go import PRESETS, GoState, KoRule, Rules, new_game, preset
from miai.core.go.rules import MAX_SIZE, MIN_SIZE
from miai.core.registry import KINDS, GameKind, kind
from miai.formats.sgf.go_rules import decode_rules
from miai.server.errors import BadInput

MAX_TEAMS = 8
MAX_PLAYERS_PER_TEAM = 8
MIN_MOVE_SECONDS = 2
MAX_MOVE_SECONDS = 30 * 24 * 3600


class OptionsError(BadInput, ValueError):
    """Options a game cannot be created with; the message says which and why (HTTP 422 `bad_options`)."""

    code = "bad_options"


class TableOptions:
    """What every game's options have besides the rules: seats, time, visibility and mode."""

    teams: int
    players_per_team: int
    seconds_per_move: float
    clock: str
    main_time: float
    increment: float
    periods: int
    period_time: float
    visibility: str
    mode: str
    level: int | str | None
    rated: bool

    @property
    def practice(self) -> bool:
        """Computer and local games: undo, redo and stepping through the game are allowed."""
        return self.mode in {"computer", "local"}

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

    def _validate_table(self) -> None:
        if not 2 <= self.teams <= MAX_TEAMS:
            raise OptionsError(f"a game has 2..{MAX_TEAMS} teams")
        if not 1 <= self.players_per_team <= MAX_PLAYERS_PER_TEAM:
            raise OptionsError(f"a team has 1..{MAX_PLAYERS_PER_TEAM} players")
        if self.mode not in {"standard", "computer", "local"}:
            raise OptionsError("mode is standard, computer or local")
        if self.visibility not in {"public", "private"}:
            raise OptionsError("visibility is public or private")
        if not isinstance(self.rated, bool):
            raise OptionsError("rated is true or false")
        if self.rated and self.mode != "standard":
            raise OptionsError("practice games (against the computer or at one screen) are never rated")
        if not MIN_MOVE_SECONDS <= self.seconds_per_move <= MAX_MOVE_SECONDS:
            raise OptionsError(f"time per move must be {MIN_MOVE_SECONDS} s .. 30 days")
        try:
            self.time_control().check()
        except ValueError as err:
            raise OptionsError(str(err)) from None
        clocked = self.clock != "none"
        if clocked and (0 < self.main_time < 1 or (self.clock == "byoyomi" and self.period_time < 1)):
            # Whole seconds are what players and records (TM, OT) deal in; a period of 5e-324 s broke
            # the clock arithmetic.
            raise OptionsError("main time is 0 or at least 1 s, and a byo-yomi period at least 1 s")

    def new_state(self) -> Any:
        raise NotImplementedError

    def validate(self) -> TableOptions:
        raise NotImplementedError

    def to_json(self) -> dict[str, Any]:
        raise NotImplementedError


TABLE_FIELDS = (
    "teams",
    "players_per_team",
    "seconds_per_move",
    "clock",
    "main_time",
    "increment",
    "periods",
    "period_time",
    "visibility",
    "mode",
    "level",
    "rated",
)


@dataclass(frozen=True)
class GoOptions(TableOptions):
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
    rated: bool = False  # the creator's choice; standard games only (server/ratings)

    @property
    def preset_key(self) -> str:
        return self.preset or ("dgo" if self.teams == 2 else "dipgo")

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
        self._validate_table()
        if self.handicap and self.teams != 2:
            raise OptionsError("handicap needs exactly two teams")
        chosen = PRESETS.get(self.preset_key.lower())
        try:  # new games only: stored games keep whatever handicap they were created with
            if chosen is not None:
                chosen.check_handicap(self.size, self.handicap)
        except InvalidRules as err:
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


GO_ONLY = frozenset(set(GoOptions.__dataclass_fields__) - set(TABLE_FIELDS) - {"size"})
RECORD = "record"  # the mode of an uploaded SGF record (play/uploads.py): finished, read-only


@dataclass(frozen=True)
class RecordOptions(GoOptions):
    """An uploaded record's Go options: its exact rules (as SGF MR values) and start position, which no
    preset and handicap can say. Never validated as a new game: the upload checks that it replays."""

    mode: str = RECORD
    exact_rules: tuple[str, ...] = ()
    setup: tuple[tuple[int, int], ...] = ()  # (point, colour) of the start position's stones
    handicap_points: tuple[int, ...] = ()
    first: int = 0  # the colour to move first
    seat_counts: tuple[int, ...] = ()  # players per colour
    names: tuple[tuple[str, ...], ...] = ()  # the players per colour (PB/PW or MU): text, not accounts

    def rules(self) -> Rules:
        return decode_rules(self.exact_rules, [])

    def new_state(self) -> GoState:
        try:
            return new_game(
                self.size,
                self.rules(),
                colours=self.teams,
                seats=self.seat_counts or None,
                handicap_points=self.handicap_points or None,
                setup=dict(self.setup),
                to_move=self.first,
            )
        except InvalidRules as err:
            raise OptionsError(str(err)) from None

    def validate(self) -> RecordOptions:
        self.new_state()
        return self

    @staticmethod
    def from_json(data: dict[str, Any]) -> RecordOptions:
        known = {k: v for k, v in data.items() if k in RecordOptions.__dataclass_fields__}
        for name in ("komi", "exact_rules", "handicap_points", "seat_counts"):
            if known.get(name) is not None:
                known[name] = tuple(known[name])
        known["setup"] = tuple((int(p), int(c)) for p, c in known.get("setup") or ())
        known["names"] = tuple(tuple(names) for names in known.get("names") or ())
        return RecordOptions(**known)


@dataclass(frozen=True)
class KindOptions(TableOptions):
    """The options of a game of any kind but Go: the kind's own (`game`, its `Offer`s) and the table's."""

    kind: str
    game: Mapping[str, Any] = field(default_factory=dict)  # the kind's options, defaults filled in
    teams: int = 2
    players_per_team: int = 1
    seconds_per_move: float = 86400
    clock: str = "none"
    main_time: float = 0
    increment: float = 0
    periods: int = 0
    period_time: float = 0
    visibility: str = "public"
    mode: str = "standard"
    level: int | str | None = None
    rated: bool = False

    @property
    def game_kind(self) -> GameKind:
        return kind(self.kind)

    @staticmethod
    def build(kind_key: str, given: Mapping[str, Any], table: Mapping[str, Any]) -> KindOptions:
        """Options from what a creator chose: `given` the kind's own, `table` the rest."""
        try:
            game_kind = kind(kind_key)
        except ValueError as err:
            raise OptionsError(str(err)) from None
        offers = {offer.name: offer for offer in game_kind.offers}
        go_only = sorted(set(given) & GO_ONLY)
        if go_only:
            names = ", ".join(go_only)
            raise OptionsError(
                f"{names} {'is a Go option' if len(go_only) == 1 else 'are Go options'}; "
                f"{game_kind.title} takes {', '.join(offers) or 'no options of its own'}"
            )
        unknown = sorted(set(given) - set(offers))
        if unknown:
            raise OptionsError(
                f"{game_kind.title} has no option {', '.join(unknown)}; it takes {', '.join(offers)}"
            )
        chosen: dict[str, Any] = {}
        for name, offer in offers.items():
            try:
                chosen[name] = offer.check(kind_key, given.get(name, offer.default))
            except ValueError as err:
                raise OptionsError(str(err)) from None
        return KindOptions(kind=kind_key, game=chosen, **table)

    def new_state(self) -> Any:
        try:
            return self.game_kind.new_game(dict(self.game))
        except ValueError as err:
            raise OptionsError(str(err)) from None

    def validate(self) -> KindOptions:
        if self.game_kind.board is None:
            raise OptionsError(f"{self.game_kind.title} games are not offered on this server")
        self._validate_table()
        players = self.new_state().players
        if self.teams != players:
            raise OptionsError(f"{self.game_kind.title} is a game for {players} teams, not {self.teams}")
        return self

    def to_json(self) -> dict[str, Any]:
        return {**self.game, **{name: getattr(self, name) for name in TABLE_FIELDS}}

    @staticmethod
    def from_json(kind_key: str, data: Mapping[str, Any]) -> KindOptions:
        offers = {offer.name for offer in kind(kind_key).offers}
        return KindOptions(
            kind=kind_key,
            game={k: v for k, v in data.items() if k in offers},
            **{k: v for k, v in data.items() if k in TABLE_FIELDS},
        )


def other_kinds_options(names: Iterable[str]) -> list[str]:
    """The names among `names` that are options of another kind than Go (Hex's `opening`, ...)."""
    theirs = {offer.name for k in KINDS.values() for offer in k.offers}
    return sorted(theirs.intersection(names) - set(GoOptions.__dataclass_fields__))


def load_options(kind_key: str, data: Mapping[str, Any]) -> GoOptions | KindOptions:
    """A stored game's options (`Game.kind`, `Game.options`)."""
    if kind_key == "go":
        if data.get("mode") == RECORD:
            return RecordOptions.from_json(dict(data))
        return GoOptions.from_json(dict(data))
    return KindOptions.from_json(kind_key, data)
