"""Named rulesets (SPEC §1.13, §1.14, G16), each with a stable key used by the API and the database."""

from __future__ import annotations

from dataclasses import dataclass, replace

from miai.core.errors import InvalidRules
from miai.core.go.handicap import max_fixed_handicap
from miai.core.go.rules import (
    DeadStones,
    HandicapBonus,
    HandicapLayout,
    KoRule,
    Rules,
    Scoring,
    Suicide,
)

ITSYOURTURN_KOMI = {9: 3.5, 13: 4.5, 19: 5.5}
ITSYOURTURN_LIMIT = {9: 75, 13: 125, 19: 225}
HANDICAP_KOMI = 0.5  # SPEC G8: handicap games get komi 0.5 unless the creator sets another value
DGO_MAX_HANDICAP = {7: 0, 9: 4, 13: 5, 19: 9}  # SPEC §1.1 handicap: none on 7x7, 2-4, 2-5, 2-9 [S1]


@dataclass(frozen=True, slots=True)
class Preset:
    key: str
    title: str
    base: Rules
    max_colours: int = 2
    handicap_limits: dict[int, int] | None = None  # most fixed handicap stones per size, if the source says

    def max_handicap(self, size: int) -> int:
        """The most fixed handicap stones this preset allows on a size (0: none; otherwise from 2)."""
        most = max_fixed_handicap(size, self.base.handicap_layout)
        if self.handicap_limits is not None:
            most = min(most, self.handicap_limits.get(size, 0))
        return most

    def check_handicap(self, size: int, stones: int) -> None:
        """Refuse a fixed handicap this preset does not offer on this size (creating games, not importing)."""
        if stones == 0 or size not in self.base.allowed_sizes:
            return  # Rules.check names the sizes
        most = self.max_handicap(size)
        if most < 2:
            raise InvalidRules(f"no handicap on {size}x{size} under {self.title} rules")
        if not 2 <= stones <= most:
            raise InvalidRules(
                f"handicap on {size}x{size} under {self.title} rules is 2..{most} stones, not {stones}"
            )

    def rules(self, size: int, colours: int = 2, handicap: int = 0, komi: float | None = None) -> Rules:
        """The preset's rules for a board size, with komi defaults for that size and handicap."""
        rules = replace(self.base, max_colours=self.max_colours)
        if self.key == "itsyourturn" and size in ITSYOURTURN_KOMI:
            rules = replace(rules, move_limit_rounds=ITSYOURTURN_LIMIT[size])
            default_komi = ITSYOURTURN_KOMI[size]
        else:
            default_komi = rules.komi_of(1)
        if komi is None:
            komi = HANDICAP_KOMI if handicap else default_komi
        if colours == 2:
            rules = rules.with_komi(komi)
        elif komi:
            raise InvalidRules("give komi per colour in games with more than two colours")
        else:
            rules = replace(rules, komi=(0.0,) * colours)
        rules.check(size, colours)
        return rules


def _p(
    key: str, title: str, max_colours: int = 2, handicap_limits: dict[int, int] | None = None,
    **options: object,
) -> Preset:
    return Preset(key, title, Rules(**options), max_colours, handicap_limits)  # type: ignore[arg-type]


PRESETS: dict[str, Preset] = {
    p.key: p
    for p in (
        _p("dgo", "Dgo (Dan-Ball)", ko=KoRule.SIMPLE, scoring=Scoring.AREA, dead_stones=DeadStones.AUTO,
           komi=(0.0, 6.5), allowed_sizes=(7, 9, 13, 19), handicap_limits=DGO_MAX_HANDICAP),
        _p("dipgo", "DipGo (multi-colour)", max_colours=16, ko=KoRule.POSITIONAL, scoring=Scoring.DIPGO,
           dead_stones=DeadStones.ALL_ALIVE, komi=(0.0, 0.0)),
        _p("itsyourturn", "itsyourturn Go", ko=KoRule.SIMPLE, scoring=Scoring.TERRITORY,
           dead_stones=DeadStones.AUTO, komi=(0.0, 5.5), seki_territory=False, allowed_sizes=(9, 13, 19)),
        _p("chinese", "Chinese", ko=KoRule.SIMPLE, scoring=Scoring.AREA, dead_stones=DeadStones.AUTO,
           komi=(0.0, 7.5), handicap_bonus=HandicapBonus.N),
        _p("japanese", "Japanese", ko=KoRule.SIMPLE, scoring=Scoring.TERRITORY, dead_stones=DeadStones.AUTO,
           komi=(0.0, 6.5), seki_territory=False, handicap_layout=HandicapLayout.GTP),
        _p("korean", "Korean", ko=KoRule.SIMPLE, scoring=Scoring.TERRITORY, dead_stones=DeadStones.AUTO,
           komi=(0.0, 6.5), seki_territory=False, handicap_layout=HandicapLayout.GTP),
        _p("aga", "AGA", ko=KoRule.SITUATIONAL, scoring=Scoring.AREA, dead_stones=DeadStones.AUTO,
           komi=(0.0, 7.5), handicap_bonus=HandicapBonus.N_MINUS_1),
        _p("nz", "New Zealand", ko=KoRule.SITUATIONAL, scoring=Scoring.AREA, dead_stones=DeadStones.AUTO,
           komi=(0.0, 7.0), suicide=Suicide.ALLOWED),
        _p("tromp-taylor", "Tromp-Taylor", ko=KoRule.POSITIONAL, scoring=Scoring.AREA,
           dead_stones=DeadStones.ALL_ALIVE, komi=(0.0, 7.5), suicide=Suicide.ALLOWED),
        _p("ing", "Ing", ko=KoRule.POSITIONAL, scoring=Scoring.AREA, dead_stones=DeadStones.AUTO,
           komi=(0.0, 7.5), suicide=Suicide.ALLOWED),
    )
}


def preset(key: str, size: int, colours: int = 2, handicap: int = 0, komi: float | None = None) -> Rules:
    """Rules of the named preset for this board size; raises InvalidRules for an unknown key."""
    try:
        chosen = PRESETS[key.lower()]
    except KeyError:
        raise InvalidRules(f"unknown rules preset {key!r}; known: {', '.join(PRESETS)}") from None
    return chosen.rules(size, colours, handicap, komi)


