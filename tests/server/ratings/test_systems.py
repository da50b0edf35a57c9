"""The rating systems through our wrapper, against the published reference values of each."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from miai.server.ratings.games import rate_game, team_ranks
from miai.server.ratings.systems import (
    GLICKO_START,
    OPENSKILL_START,
    Rating,
    glicko2_game,
    glicko2_period,
    openskill_game,
    ordinal,
    provisional,
)

GLICKMAN_OPPONENTS = [(Rating(1400, 30), 1.0), (Rating(1550, 100), 0.0), (Rating(1700, 300), 0.0)]


def test_glickmans_worked_example() -> None:
    """Glickman, "Example of the Glicko-2 system" (2012): 1500/200/0.06 against 1400/30 (won), 1550/100 and
    1700/300 (lost) becomes r' = 1464.06, RD' = 151.52, sigma' = 0.05999."""
    after = glicko2_period(Rating(1500, 200, 0.06), GLICKMAN_OPPONENTS)
    assert after.rating == pytest.approx(1464.06, abs=0.01)
    assert after.deviation == pytest.approx(151.52, abs=0.01)
    assert after.volatility == pytest.approx(0.05999, abs=0.00001)


def test_glicko2_does_not_depend_on_where_the_scale_is_centred() -> None:
    """The paper's update depends on rating differences only: the same games 300 points higher move the
    rating by as much and leave the same deviation and volatility. The `glicko2` package alone fails this
    (its volatility step uses the rating where the paper has the deviation)."""
    centred = glicko2_period(Rating(1500, 200, 0.06), GLICKMAN_OPPONENTS)
    shifted = [(Rating(o.rating + 300, o.deviation), s) for o, s in GLICKMAN_OPPONENTS]
    higher = glicko2_period(Rating(1800, 200, 0.06), shifted)
    assert higher.rating - 300 == pytest.approx(centred.rating, abs=1e-9)
    assert higher.deviation == pytest.approx(centred.deviation, abs=1e-9)
    assert higher.volatility == pytest.approx(centred.volatility, abs=1e-12)


def test_openskill_manuals_example() -> None:
    """openskill.py's user manual: two teams of two new players, the first wins: mu 26.964294621803063 and
    23.035705378196937, sigma 8.177962604389991 for all four; ordinals 2.4304068086330872 and
    -1.4981824349730388."""
    new = OPENSKILL_START
    (w1, w2), (l1, l2) = openskill_game([[new, new], [new, new]], [1, 2])
    assert (w1.rating, w1.deviation) == pytest.approx((26.964294621803063, 8.177962604389991), abs=1e-12)
    assert (l2.rating, l2.deviation) == pytest.approx((23.035705378196937, 8.177962604389991), abs=1e-12)
    assert w2 == w1 and l1 == l2
    assert ordinal("openskill", w1) == pytest.approx(2.4304068086330872, abs=1e-12)
    assert ordinal("openskill", l1) == pytest.approx(-1.4981824349730388, abs=1e-12)


def test_openskill_refuses_ranks_that_do_not_fit_the_teams() -> None:
    with pytest.raises(ValueError, match="one rank per team"):
        openskill_game([[OPENSKILL_START], [OPENSKILL_START]], [1])


glicko_ratings = st.builds(
    Rating,
    st.floats(100, 3000),
    st.floats(45, 350),
    st.floats(0.03, 0.1),
)


@given(glicko_ratings, glicko_ratings)
def test_a_glicko2_win_never_lowers_the_winners_rating(winner: Rating, loser: Rating) -> None:
    after = rate_game("glicko2", {1: [winner], 2: [loser]}, {1: 1, 2: 2})
    assert after[1][0].rating >= winner.rating
    assert after[2][0].rating <= loser.rating


openskill_ratings = st.builds(Rating, st.floats(0, 50), st.floats(0.5, 25 / 3))


@given(st.lists(st.lists(openskill_ratings, min_size=1, max_size=3), min_size=2, max_size=5), st.data())
def test_an_openskill_win_never_lowers_the_winners_ratings(
    teams: list[list[Rating]], data: st.DataObject
) -> None:
    """Winner first, everyone else tied behind, as a Go result with more than two colours ranks them."""
    winner = data.draw(st.integers(1, len(teams)))
    ranks = {t: 1 if t == winner else 2 for t in range(1, len(teams) + 1)}
    after = rate_game("openskill", dict(enumerate(teams, start=1)), ranks)
    for before, new in zip(teams[winner - 1], after[winner], strict=True):
        assert new.rating >= before.rating


def test_a_draw_between_equals_moves_no_glicko2_rating() -> None:
    after = rate_game("glicko2", {1: [GLICKO_START], 2: [GLICKO_START]}, {1: 1, 2: 1})
    assert after[1][0].rating == pytest.approx(1500) and after[2][0].rating == pytest.approx(1500)
    assert after[1][0].deviation < 350


def test_handicap_stones_make_a_handicap_win_worth_less() -> None:
    even = rate_game("glicko2", {1: [GLICKO_START], 2: [GLICKO_START]}, {1: 1, 2: 2})
    handicap = rate_game("glicko2", {1: [GLICKO_START], 2: [GLICKO_START]}, {1: 1, 2: 2}, black_bonus=200)
    assert 1500 < handicap[1][0].rating < even[1][0].rating
    assert even[2][0].rating < handicap[2][0].rating < 1500


def test_ranks_come_from_the_results_ranking() -> None:
    assert team_ranks({"ranking": [[2], [1, 3]]}, [1, 2, 3]) == {2: 1, 1: 2, 3: 2}
    assert team_ranks({"ranking": [[1, 2]]}, [1, 2]) == {1: 1, 2: 1}  # a draw ties everyone
    assert team_ranks({"ranking": [[3], [1], [2]]}, [1, 2, 3]) == {3: 1, 1: 2, 2: 3}  # by score
    assert team_ranks({}, [1, 2]) is None
    assert team_ranks({"ranking": [[1]]}, [1, 2]) is None  # a team left unranked: not rated


def test_new_ratings_are_provisional_until_the_deviation_is_small_and_ten_games_are_played() -> None:
    assert provisional("glicko2", GLICKO_START) and not provisional("glicko2", Rating(1500, 109.9, 0.06))
    assert provisional("openskill", OPENSKILL_START) and not provisional("openskill", Rating(25, 4.9))
    assert provisional("glicko2", Rating(1500, 60, 0.06), games=9)  # a small RD after a few lucky games
    assert not provisional("glicko2", Rating(1500, 60, 0.06), games=10)
    assert provisional("openskill", Rating(25, 4.9), games=9)
    played = GLICKO_START
    for _ in range(3):
        played = glicko2_game(played, GLICKO_START, 1.0)
    assert 45 <= played.deviation < 350
