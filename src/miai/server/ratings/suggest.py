"""Ranks from Glicko-2 ratings, and the handicap and komi of a game between two ratings, as OGS does.

OGS's rank scale (online-go/goratings, the 2021 rating system): rank = ln(rating / 525) * 23.15, where rank 30
is 1 dan and each rank is one handicap stone on 19x19. On smaller boards a stone is worth more: OGS counts
one 13x13 stone as 3 ranks and one 9x9 stone as 6 (goratings' `get_handicap_rank_difference`). So the
suggested handicap is the rank difference divided by 1, 3 or 6 (by the board's size class), rounded: 0 is
an even game (the preset's komi), 1 is "no komi" (the weaker player takes Black, komi 0.5), 2 and more
are handicap stones with komi 0.5, at most 9.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from miai.server.ratings.kind_keys import go_size_class

A = 525.0
C = 23.15
MIN_RATING, MAX_RATING = 100.0, 6000.0  # the ranks of hostile or absurd ratings stay finite
MAX_STONES = 9
RANKS_PER_STONE = {"go-9": 6.0, "go-13": 3.0, "go-19": 1.0}


def rating_to_rank(rating: float) -> float:
    return math.log(min(MAX_RATING, max(MIN_RATING, rating)) / A) * C


def rank_to_rating(rank: float) -> float:
    return A * math.exp(rank / C)


def rank_label(rank: float) -> str:
    """OGS's names: 30 and up are dan (30 = 1d), below are kyu (29 = 1k, 0 = 30k)."""
    whole = math.floor(rank)
    return f"{whole - 29}d" if whole >= 30 else f"{30 - max(whole, 0)}k"


def ranks_per_stone(size: int) -> float:
    return RANKS_PER_STONE[go_size_class(size)]


def handicap_adjustment(rating: float, handicap: int, size: int) -> float:
    """How much stronger Black plays with `handicap` stones, in rating points (OGS rates handicap games
    with Black's rating raised by the ranks the stones are worth)."""
    if handicap <= 0:
        return 0.0
    return rank_to_rating(rating_to_rank(rating) + handicap * ranks_per_stone(size)) - rating


@dataclass(frozen=True)
class Suggestion:
    black: int  # which of the two (0 or 1) should take Black: the weaker
    handicap: int  # stones; 0 with komi 0.5 is "no komi"
    komi: float | None  # None: the preset's own komi (an even game)
    rank_difference: float


def suggest(rating_a: float, rating_b: float, size: int) -> Suggestion:
    """The handicap and komi for a game of `size` between players rated `rating_a` and `rating_b`."""
    difference = rating_to_rank(rating_a) - rating_to_rank(rating_b)
    weaker = 0 if difference < 0 else 1
    stones = min(MAX_STONES, round(abs(difference) / ranks_per_stone(size)))
    if stones == 0:
        return Suggestion(black=weaker, handicap=0, komi=None, rank_difference=abs(difference))
    return Suggestion(
        black=weaker, handicap=0 if stones == 1 else stones, komi=0.5, rank_difference=abs(difference)
    )
