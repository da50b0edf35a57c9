"""Presets (SPEC §1.13, §1.14, G8, G16), handicap layouts (§1.9, G10) and suicide options (G14)."""

from __future__ import annotations

import pytest

from miai.core.errors import IllegalReason, InvalidRules
from miai.core.go import (
    PASS,
    PRESETS,
    DeadStones,
    HandicapBonus,
    KoRule,
    Place,
    Rules,
    Scoring,
    Suicide,
    new_game,
    preset,
    score,
)
from miai.core.go.handicap import fixed_handicap
from miai.core.go.rules import HandicapLayout
from tests.core.go.helpers import from_diagram

LETTERS = "ABCDEFGHJKLMNOPQRST"


def vertices(size: int, stones: int, layout: HandicapLayout) -> list[str]:
    return [f"{LETTERS[c]}{r + 1}" for c, r in fixed_handicap(size, stones, layout)]


DGO_TABLE = {
    (9, 2): "C3 G7",
    (9, 3): "C3 G7 G3",
    (9, 4): "C3 C7 G3 G7",
    (13, 2): "D4 K10",
    (13, 3): "D4 K10 K4",
    (13, 4): "D4 D10 K4 K10",
    (13, 5): "D4 D10 K4 K10 G7",
    (19, 2): "D4 Q16",
    (19, 3): "D4 Q16 Q4",
    (19, 4): "D4 D16 Q4 Q16",
    (19, 5): "D4 D16 Q4 Q16 K10",
    (19, 6): "D4 D16 Q4 Q16 D10 Q10",
    (19, 7): "D4 D16 Q4 Q16 D10 Q10 K10",
    (19, 8): "D4 D16 Q4 Q16 D10 Q10 K4 K16",
    (19, 9): "D4 D16 Q4 Q16 D10 Q10 K4 K16 K10",
}


@pytest.mark.parametrize(("size", "stones"), list(DGO_TABLE))
def test_dgo_handicap_table(size: int, stones: int) -> None:
    """§1.9: the Dgo table with y counted from the top, as GTP vertices."""
    expected = sorted(DGO_TABLE[size, stones].split())
    assert sorted(vertices(size, stones, HandicapLayout.TRADITIONAL)) == expected


def test_gtp_layout_differs_only_for_three_stones() -> None:
    assert vertices(19, 3, HandicapLayout.GTP) == ["D4", "Q16", "D16"]
    assert vertices(9, 3, HandicapLayout.GTP) == ["C3", "G7", "C7"]
    for stones in (2, 4, 5, 6, 7, 8, 9):
        assert sorted(vertices(19, stones, HandicapLayout.GTP)) == sorted(
            vertices(19, stones, HandicapLayout.TRADITIONAL)
        )


def test_handicap_limits() -> None:
    with pytest.raises(InvalidRules, match="no fixed handicap on 7x7"):
        fixed_handicap(7, 2, HandicapLayout.TRADITIONAL)
    assert vertices(7, 4, HandicapLayout.GTP) == ["C3", "E5", "C5", "E3"]  # GNU Go allows 4 on 7x7
    with pytest.raises(InvalidRules):
        fixed_handicap(10, 5, HandicapLayout.GTP)  # even sizes: at most 4
    with pytest.raises(InvalidRules):
        fixed_handicap(19, 10, HandicapLayout.GTP)


def test_dgo_preset_handicap_ranges() -> None:
    """§1.1: Dgo offers none on 7x7, 2-4 on 9x9, 2-5 on 13x13, 2-9 on 19x19; other presets their layout's."""
    dgo = PRESETS["dgo"]
    assert [dgo.max_handicap(size) for size in (7, 9, 13, 19)] == [0, 4, 5, 9]
    assert [PRESETS["chinese"].max_handicap(size) for size in (7, 9, 13, 19)] == [0, 9, 9, 9]
    dgo.check_handicap(9, 4)
    dgo.check_handicap(7, 0)
    dgo.check_handicap(11, 2)  # not a Dgo size: Rules.check refuses the size itself
    with pytest.raises(InvalidRules, match="no handicap on 7x7"):
        dgo.check_handicap(7, 2)
    with pytest.raises(InvalidRules, match=r"2\.\.5 stones, not 6"):
        dgo.check_handicap(13, 6)
    PRESETS["chinese"].check_handicap(13, 9)


def test_handicap_game_white_moves_first_with_komi_half() -> None:
    """G10 / G8: Black's stones are placed, White moves first; komi 0.5 unless set."""
    rules = preset("dgo", 19, handicap=4)
    assert rules.komi == (0.0, 0.5)
    state = new_game(19, rules, handicap=4)
    assert state.to_move == 1
    assert len(state.stones(0)) == 4
    assert state.handicap == 4


def test_free_handicap() -> None:
    state = new_game(9, preset("chinese", 9, handicap=3), handicap_points=[0, 1, 2])
    assert state.stones(0) == [0, 1, 2]
    assert state.to_move == 1


def test_handicap_needs_two_colours() -> None:
    with pytest.raises(InvalidRules, match="two colours"):
        new_game(9, Rules(komi=(0, 0, 0)), colours=3, handicap=2)


def test_area_handicap_bonus() -> None:
    """§1.14: Chinese gives White N points in handicap games, AGA N-1, territory rules none."""
    for key, bonus in (("chinese", 4), ("aga", 3), ("tromp-taylor", 0)):
        rules = preset(key, 19, handicap=4)
        state = new_game(19, rules, handicap=4)
        white = score(state)[1]
        assert white.komi == 0.5 + bonus, key


EXPECTED = {
    # key: (ko, scoring, suicide, dead stones, komi for White at 19x19)
    "dgo": (KoRule.SIMPLE, Scoring.AREA, Suicide.FORBIDDEN, DeadStones.AUTO, 6.5),
    "dipgo": (KoRule.POSITIONAL, Scoring.DIPGO, Suicide.FORBIDDEN, DeadStones.ALL_ALIVE, 0.0),
    "itsyourturn": (KoRule.SIMPLE, Scoring.TERRITORY, Suicide.FORBIDDEN, DeadStones.AUTO, 5.5),
    "chinese": (KoRule.SIMPLE, Scoring.AREA, Suicide.FORBIDDEN, DeadStones.AUTO, 7.5),
    "japanese": (KoRule.SIMPLE, Scoring.TERRITORY, Suicide.FORBIDDEN, DeadStones.AUTO, 6.5),
    "korean": (KoRule.SIMPLE, Scoring.TERRITORY, Suicide.FORBIDDEN, DeadStones.AUTO, 6.5),
    "aga": (KoRule.SITUATIONAL, Scoring.AREA, Suicide.FORBIDDEN, DeadStones.AUTO, 7.5),
    "nz": (KoRule.SITUATIONAL, Scoring.AREA, Suicide.ALLOWED, DeadStones.AUTO, 7.0),
    "tromp-taylor": (KoRule.POSITIONAL, Scoring.AREA, Suicide.ALLOWED, DeadStones.ALL_ALIVE, 7.5),
    "ing": (KoRule.POSITIONAL, Scoring.AREA, Suicide.ALLOWED, DeadStones.AUTO, 7.5),
}


@pytest.mark.parametrize("key", sorted(EXPECTED))
def test_every_preset(key: str) -> None:
    rules = preset(key, 19)
    assert (rules.ko, rules.scoring, rules.suicide, rules.dead_stones, rules.komi_of(1)) == EXPECTED[key]


def test_preset_keys_are_all_listed() -> None:
    assert set(PRESETS) == set(EXPECTED)


def test_itsyourturn_komi_and_limits_per_size() -> None:
    """G5 / G8: komi 3.5 / 4.5 / 5.5 and move limits 75 / 125 / 225 rounds on 9 / 13 / 19."""
    for size, komi, limit in ((9, 3.5, 75), (13, 4.5, 125), (19, 5.5, 225)):
        rules = preset("itsyourturn", size)
        assert (rules.komi_of(1), rules.move_limit_rounds) == (komi, limit)


def test_dgo_sizes_and_komi() -> None:
    for size in (7, 9, 13, 19):
        assert preset("dgo", size).komi_of(1) == 6.5
    with pytest.raises(InvalidRules, match="not allowed"):
        preset("dgo", 11)
    with pytest.raises(InvalidRules, match="not allowed"):
        preset("itsyourturn", 7)


def test_dipgo_allows_many_colours_and_sizes() -> None:
    rules = preset("dipgo", 5, colours=9)
    assert rules.komi == (0.0,) * 9
    new_game(5, rules, colours=9)
    with pytest.raises(InvalidRules):
        preset("chinese", 19, colours=3)


def test_unknown_preset() -> None:
    with pytest.raises(InvalidRules, match="unknown rules preset"):
        preset("nonsense", 19)


def test_japanese_handicap_bonus_not_applied() -> None:
    assert preset("japanese", 19).handicap_bonus is HandicapBonus.NONE


SUICIDE_POSITION = """
    5 . . . . .
    4 . . . . .
    3 O O . . .
    2 X X O . .
    1 . X O . .
      A B C D E
"""


def test_multi_stone_suicide_when_allowed() -> None:
    """G14: Black A1 kills its own three stones under Tromp-Taylor / NZ rules."""
    state, d = from_diagram(SUICIDE_POSITION, Rules(suicide=Suicide.ALLOWED, allowed_sizes=(5,)))
    after = state.play(Place(d.point("A1")))
    assert after.stones(0) == []
    assert after.lost == (4, 0)
    assert after.captured_by == (0, 0)
    forbidden, _ = from_diagram(SUICIDE_POSITION)
    assert forbidden.analyze(Place(d.point("A1"))).reason is IllegalReason.SUICIDE


def test_single_stone_suicide_stays_illegal_when_suicide_is_allowed() -> None:
    state, d = from_diagram(
        """
        5 . . . . .
        4 . . . . .
        3 . . . . .
        2 O . . . .
        1 . O . . .
          A B C D E
        """,
        Rules(suicide=Suicide.ALLOWED, allowed_sizes=(5,)),
    )
    assert state.analyze(Place(d.point("A1"))).reason is IllegalReason.SUICIDE


def test_territory_scoring_counts_prisoners_and_dead_stones() -> None:
    """§1.8.3 / G13: territory − own prisoners − own dead stones; the dead stone's point is territory."""
    state, d = from_diagram(
        """
        5 . . X O .
        4 . . X O .
        3 . O X O .
        2 . . X O .
        1 . . X O .
          A B C D E
        """,
        Rules(scoring=Scoring.TERRITORY, komi=(0, 0.5), allowed_sizes=(5,)),
    )
    black, white = score(state, dead={d.point("B3")})
    assert black.territory == 10  # 9 empty points + the point under the dead White stone
    assert (white.territory, white.dead, white.total) == (5, 1, 5 - 1 + 0.5)
    assert black.total == 10


def test_komi_single_value_needs_two_colours() -> None:
    with pytest.raises(InvalidRules):
        Rules().with_komi(6.5, colours=3)
    assert Rules().with_komi(6.5).komi == (0.0, 6.5)


def test_sizes_outside_the_range_are_refused() -> None:
    with pytest.raises(InvalidRules):
        new_game(26)
    with pytest.raises(InvalidRules):
        new_game(4)
    state = new_game(25).play(Place(624)).play(PASS)
    assert state.colour_at(624) == 0
