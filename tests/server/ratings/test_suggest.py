"""Ranks and handicaps from ratings, on OGS's scale (online-go/goratings: rank = ln(rating / 525) * 23.15)."""

from __future__ import annotations

import math

import pytest

from miai.server.game_options import GoOptions, KindOptions
from miai.server.ratings.kind_keys import go_size_class, kind_key, known_key, system_of
from miai.server.ratings.suggest import (
    handicap_adjustment,
    rank_label,
    rank_to_rating,
    rating_to_rank,
    suggest,
)


def test_ogs_rank_scale() -> None:
    assert rating_to_rank(525) == pytest.approx(0)  # 30k
    assert rating_to_rank(1500) == pytest.approx(math.log(1500 / 525) * 23.15)
    assert rank_label(rating_to_rank(1500)) == "6k"
    assert rank_label(30.0) == "1d" and rank_label(29.99) == "1k" and rank_label(-5) == "30k"
    assert rank_to_rating(rating_to_rank(1832.5)) == pytest.approx(1832.5)
    for hostile in (float("inf"), -1e308, 0.0):
        assert math.isfinite(rating_to_rank(hostile))


def test_handicap_follows_the_rank_difference_and_the_board_size() -> None:
    three_ranks = rank_to_rating(rating_to_rank(1500) + 3)
    even = suggest(1500, 1500, 19)
    assert (even.handicap, even.komi) == (0, None)
    on_19 = suggest(three_ranks, 1500, 19)
    assert (on_19.black, on_19.handicap, on_19.komi) == (1, 3, 0.5)  # the second player is weaker: Black
    assert suggest(1500, three_ranks, 13).handicap == 0 and suggest(1500, three_ranks, 13).komi == 0.5
    assert suggest(1500, three_ranks, 13).black == 0  # one 13x13 stone is 3 ranks: "no komi"
    assert suggest(1500, three_ranks, 9).komi is None  # half a 9x9 stone: even
    assert suggest(3000, 300, 19).handicap == 9  # never more than nine stones


def test_a_handicap_raises_blacks_expected_strength() -> None:
    assert handicap_adjustment(1500, 0, 19) == 0
    assert 0 < handicap_adjustment(1500, 2, 19) < handicap_adjustment(1500, 2, 9)


def test_kind_keys() -> None:
    assert [go_size_class(n) for n in (5, 9, 11, 12, 13, 15, 16, 19, 25)] == [
        *["go-9"] * 3,
        *["go-13"] * 3,
        *["go-19"] * 3,
    ]
    assert kind_key("go", GoOptions(size=19)) == "go-19"
    assert kind_key("go", GoOptions(size=19, players_per_team=2)) == "go-19-teams"
    assert kind_key("go", GoOptions(size=19, teams=3)) == "go-multi"
    assert kind_key("hex", KindOptions(kind="hex")) == "hex"
    assert system_of("go-19") == "glicko2" and system_of("hex") == "glicko2"
    assert system_of("go-19-teams") == "openskill" and system_of("go-multi") == "openskill"
    assert known_key("go-13") and known_key("tanbo-teams") and not known_key("chess")
