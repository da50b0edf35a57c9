"""Reviews players can trust (issue 34): one fixed perspective whatever the side to move, the final lead is
the game's count, and a quiet endgame reads quietly."""

from __future__ import annotations

from dataclasses import replace
from itertools import pairwise
from pathlib import Path

import pytest

from miai.core.go import GoState, Pass, new_game, preset
from miai.core.go.vertex import parse_point
from miai.engines.estimator import judge_end, score_judged
from miai.engines.review import review_position
from miai.formats.sgf.go import load_go
from tests.conftest import shared_data

# A quiet 9x9 middle game: both sides have settled corners, nothing is in atari.
MIDDLE = {"B": "C3 D3 C4 E4 G3 G4 C6 F6", "W": "C7 D7 E7 G7 G6 F5 H5 E5"}


def _state(stones: dict[int, int], to_move: int, komi: tuple[float, ...], colours: int = 2) -> GoState:
    if colours > 2:  # the defaults of a many-colour game (positional superko), no komi
        return new_game(9, colours=colours, setup=stones, to_move=to_move)
    rules = replace(preset("chinese", 9, 2, 0, 0.0), komi=komi, allowed_sizes=(9,))
    return new_game(9, rules, colours=colours, setup=stones, to_move=to_move)


def _points(text: str) -> list[int]:
    return [parse_point(word, 9) for word in text.split()]


def _middle(swapped: bool) -> GoState:
    stones = dict.fromkeys(_points(MIDDLE["B"]), 0) | dict.fromkeys(_points(MIDDLE["W"]), 1)
    if swapped:
        return _state({p: 1 - c for p, c in stones.items()}, 1, (7.0, 0.0))
    return _state(stones, 0, (0.0, 7.0))


def _lead(score: tuple[float, ...], colour: int = 0) -> float:
    return score[colour] - score[1 - colour]


def test_a_colour_swapped_position_gives_mirrored_figures() -> None:
    plain = review_position(_middle(False), 1200, seed=3)
    swapped = review_position(_middle(True), 1200, seed=3)
    assert plain.shares[0] == pytest.approx(swapped.shares[1], abs=0.08)
    assert _lead(plain.score) == pytest.approx(-_lead(swapped.score), abs=3.0)


def test_an_even_symmetric_opening_reads_even() -> None:
    stones = dict.fromkeys(_points("C3 G7"), 0) | dict.fromkeys(_points("C7 G3"), 1)
    review = review_position(_state(stones, 0, (0.0, 7.0)), 1200, seed=1)
    assert abs(_lead(review.score)) < 3.0
    assert review.shares[0] == pytest.approx(0.5, abs=0.15)


def _record(name: str) -> GoState:
    path = next(Path(shared_data("gnugo", "games")).rglob(name))
    return load_go(path.read_bytes()).state


@pytest.mark.parametrize("name", ["9x9-1.sgf", "9x9-2.sgf", "nicklas3.sgf"])
def test_the_final_lead_of_a_counted_game_is_its_count(name: str) -> None:
    final = _record(name)
    assert final.is_over and isinstance(final.last_move, Pass)
    result = score_judged(final, judge_end(final))  # as the server judges the end
    count = result.scores[0].total - result.scores[1].total
    assert _lead(review_position(final, 200, seed=0).score) == pytest.approx(count, abs=2.0)


QUIET_CHANGE = 0.06  # see docs/engine.md, "Reviews": the quiet endgame measured about 0.03


def test_a_quiet_endgame_moves_little_from_position_to_position() -> None:
    final = _quiet_game()
    states = [s for s in reversed(list(final.lineage())) if not s.is_over][-12:]
    black = [review_position(s, 400, seed=1).shares[0] for s in states]
    change = sum(abs(a - b) for a, b in pairwise(black)) / (len(black) - 1)
    assert change < QUIET_CHANGE


def _quiet_game() -> GoState:
    return _record("bitti-gnug36.sgf")


def test_three_colours_rotated_give_rotated_figures() -> None:
    base = (
        dict.fromkeys(_points("C3 D4"), 0)
        | dict.fromkeys(_points("G7 F6"), 1)
        | dict.fromkeys(_points("C7 G3"), 2)
    )
    plain = review_position(_state(base, 0, (0.0, 0.0, 0.0), 3), 900, seed=2)
    turned = review_position(
        _state({p: (c + 1) % 3 for p, c in base.items()}, 1, (0.0, 0.0, 0.0), 3), 900, seed=2
    )
    for c in range(3):
        assert plain.shares[c] == pytest.approx(turned.shares[(c + 1) % 3], abs=0.1)
        assert plain.score[c] == pytest.approx(turned.score[(c + 1) % 3], abs=3.0)
