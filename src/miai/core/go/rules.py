"""Rules as orthogonal data. A `Rules` value plus a board size and colour count fully defines a game."""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from enum import StrEnum

from miai.core.errors import InvalidRules

MIN_SIZE = 5  # the smallest size offered to players (SPEC G15)
MAX_SIZE = 25  # GTP letters A..Z without I
SMALLEST_BOARD = 2  # what the core can play at all; tiny boards are for perft and tests
MIN_COLOURS = 2
MAX_COLOURS = 16


class KoRule(StrEnum):
    SIMPLE = "simple"
    POSITIONAL = "positional"
    SITUATIONAL = "situational"


class Scoring(StrEnum):
    AREA = "area"
    TERRITORY = "territory"
    DIPGO = "dipgo"


class Suicide(StrEnum):
    FORBIDDEN = "forbidden"
    ALLOWED = "allowed"  # multi-stone suicide only; a lone stone with no liberty stays illegal


class DeadStones(StrEnum):
    ALL_ALIVE = "all_alive"
    AUTO = "auto"


class HandicapBonus(StrEnum):
    """Extra points for White in handicap games under area scoring (KataGo's `whiteHandicapBonus`)."""

    NONE = "0"
    N = "N"
    N_MINUS_1 = "N-1"


class HandicapLayout(StrEnum):
    TRADITIONAL = "traditional"  # Dgo's table: the third stone at Black's lower right
    GTP = "gtp"  # GTP / GNU Go: the third stone at the upper left


@dataclass(frozen=True, slots=True)
class Rules:
    """Every rule option of Go. `komi` is per colour (index = colour); missing colours get 0."""

    ko: KoRule = KoRule.POSITIONAL
    scoring: Scoring = Scoring.AREA
    suicide: Suicide = Suicide.FORBIDDEN
    dead_stones: DeadStones = DeadStones.ALL_ALIVE
    komi: tuple[float, ...] = (0.0, 0.0)
    capture_points: bool = False
    remove_inactive_stones: bool = False
    move_limit_rounds: int | None = None
    handicap_bonus: HandicapBonus = HandicapBonus.NONE
    handicap_layout: HandicapLayout = HandicapLayout.TRADITIONAL
    seki_territory: bool = True  # False: under territory scoring, eyes in seki are not territory
    allowed_sizes: tuple[int, ...] = field(default=tuple(range(MIN_SIZE, MAX_SIZE + 1)))
    max_colours: int = MAX_COLOURS

    def komi_of(self, colour: int) -> float:
        return self.komi[colour] if colour < len(self.komi) else 0.0

    def with_komi(self, komi: float | tuple[float, ...], colours: int = 2) -> Rules:
        """Komi as a single number goes to White (colour 1) in two-colour games."""
        if isinstance(komi, tuple):
            return replace(self, komi=komi)
        if colours != 2:
            raise InvalidRules("a single komi value needs exactly two colours; give one value per colour")
        return replace(self, komi=(0.0, float(komi)))

    def check(self, size: int, colours: int) -> None:
        """Refuse combinations that cannot be played, with a message a player understands."""
        if size not in self.allowed_sizes:
            allowed = ", ".join(str(s) for s in self.allowed_sizes)
            raise InvalidRules(f"board size {size} is not allowed here (allowed: {allowed})")
        if not SMALLEST_BOARD <= size <= MAX_SIZE:
            raise InvalidRules(f"board size must be {MIN_SIZE}..{MAX_SIZE}, not {size}")
        if not MIN_COLOURS <= colours <= min(self.max_colours, MAX_COLOURS):
            raise InvalidRules(f"this game needs {MIN_COLOURS}..{self.max_colours} colours, not {colours}")
        if colours > 2 and self.ko is not KoRule.POSITIONAL:
            raise InvalidRules("games with more than two colours use positional superko (SPEC G2)")
        if len(self.komi) > colours:
            raise InvalidRules(f"komi has {len(self.komi)} values for {colours} colours")
        if self.move_limit_rounds is not None and self.move_limit_rounds < 1:
            raise InvalidRules("the move limit must be at least one round")
