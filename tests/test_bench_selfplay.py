"""The A/B self-play runner (bench/selfplay.py): its overrides, its players and one small game."""

from __future__ import annotations

import argparse
from types import ModuleType

import pytest

from miai.engines.kernel.playout import K_FILL_BOARD, K_TWO_LIBS, policy_knobs
from miai.engines.kernel.tree import EXPLORE, PRIOR_RAVE, default_params
from tests.conftest import bench_module


@pytest.fixture(scope="module")
def selfplay() -> ModuleType:
    return bench_module("selfplay.py")


def test_overrides_name_tree_parameters_and_policy_knobs(selfplay: ModuleType) -> None:
    side = selfplay.parse_overrides(["params.prior_rave=0", "knobs.fill_board=2", "params.explore=0.3"])
    assert side.params == ((PRIOR_RAVE, 0.0), (EXPLORE, 0.3))
    assert side.knobs == ((K_FILL_BOARD, 2.0),)


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("prior_rave=0", "an override reads"),
        ("params.prior_rave=lots", "an override reads"),
        ("tree.explore=1", "neither params nor knobs"),
        ("params.no_such_thing=1", "no params setting named 'no_such_thing'"),
        ("knobs.explore=1", "no knobs setting named 'explore'"),
    ],
)
def test_bad_overrides_say_what_is_wrong(selfplay: ModuleType, text: str, message: str) -> None:
    with pytest.raises(SystemExit, match=message):
        selfplay.parse_overrides([text])


def test_players_get_their_side_settings(selfplay: ModuleType) -> None:
    args = argparse.Namespace(playouts=20, seconds=None)
    side = selfplay.parse_overrides(["knobs.two_libs=0", "params.explore=0.5"])
    player = selfplay.make_player(side, args, 1)
    knobs = policy_knobs()
    knobs[K_TWO_LIBS] = 0.0
    params = default_params()
    params[EXPLORE] = 0.5
    assert (player.search.knobs == knobs).all()
    assert (player.search.params == params).all()


def test_a_small_game_ends_with_a_score_for_b(selfplay: ModuleType) -> None:
    args = argparse.Namespace(playouts=40, seconds=None, size=7, komi=7.5)
    same = selfplay.parse_overrides([])
    other = selfplay.parse_overrides(["knobs.fill_board=0"])
    game, points, moves = selfplay.play_one(3, same, other, args)
    assert game == 3 and points in (0.0, 0.5, 1.0) and moves > 10
    assert selfplay.play_one(3, same, other, args) == (game, points, moves)  # seeded: the same game again
