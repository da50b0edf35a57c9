"""The simple player (`miai gtp --level simple`): never illegal, never fills its own eye, captures and
rescues when it can."""

from __future__ import annotations

import random

import pytest

from miai.core.go import PASS, GoState, Place, Rules, new_game, preset
from miai.engines.simple import SimplePlayer
from tests.core.go.helpers import from_diagram


def own_eye(state: GoState, colour: int, point: int) -> bool:
    return state.colour_at(point) is None and all(
        state.colour_at(n) == colour for n in state.geo.neighbours[point]
    )


def play_out(state: GoState, seed: int, limit: int) -> int:
    """Play a whole game with one seeded player per colour, checking every choice; returns the plies."""
    players = [SimplePlayer(random.Random(seed * 31 + c)) for c in range(state.colours)]
    plies = 0
    while not state.is_over and plies < limit:
        colour = state.to_move
        move = players[colour](state, colour, None)
        if isinstance(move, Place):
            assert move.point in state.legal_points(colour), f"illegal {move} for colour {colour}"
            assert not own_eye(state, colour, move.point), f"colour {colour} filled its own eye {move}"
        else:
            assert move == PASS
        state = state.play(move)
        plies += 1
    return plies


@pytest.mark.parametrize("seed", range(12))
@pytest.mark.parametrize(
    ("size", "colours", "key"),
    [(5, 2, "chinese"), (9, 2, "japanese"), (7, 3, "dipgo"), (9, 2, "tromp-taylor"), (6, 4, "dipgo")],
)
def test_seeded_games_are_legal_and_end(seed: int, size: int, colours: int, key: str) -> None:
    rules = preset(key, size, colours=colours)
    plies = play_out(new_game(size, rules, colours=colours), seed, limit=10 * size * size)
    assert plies < 10 * size * size, "the game did not end by passes"


def test_a_19x19_game_is_legal_and_ends() -> None:
    assert play_out(new_game(19, preset("aga", 19)), seed=5, limit=2000) < 2000


def test_same_seed_same_game() -> None:
    def moves(seed: int) -> list[object]:
        state = new_game(9, preset("chinese", 9))
        player = SimplePlayer(random.Random(seed))
        out = []
        for _ in range(40):
            move = player(state, state.to_move, None)
            out.append(move)
            state = state.play(move)
        return out

    assert moves(7) == moves(7)
    assert moves(7) != moves(8)


def test_captures_the_largest_group_in_atari() -> None:
    state, diagram = from_diagram(
        """
        5 . . . . .
        4 . O O . .
        3 O X X O .
        2 O X X O .
        1 . O . O .
          A B C D E
        """
    )
    move = SimplePlayer(random.Random(0))(state, 1, None)
    assert move == Place(diagram.point("C1"))  # takes four stones rather than anything else


def test_saves_its_own_stones_in_atari() -> None:
    state, diagram = from_diagram(
        """
        5 . . . . .
        4 . . . . .
        3 . O . . .
        2 O X . . .
        1 . O . . .
          A B C D E
        """
    )
    move = SimplePlayer(random.Random(0))(state, 0, None)
    assert move == Place(diagram.point("C2"))  # the only way to give B2 more liberties


def test_never_fills_its_own_eyes_and_passes_when_only_eyes_are_left() -> None:
    state, _ = from_diagram(
        """
        5 . X . X .
        4 X X X X X
        3 X . X . X
        2 X X X X X
        1 . X . X .
          A B C D E
        """
    )
    player = SimplePlayer(random.Random(3))
    assert player(state, 0, None) == PASS
    # White may play in Black's eyes only where that is legal: nowhere (suicide), so White passes too.
    assert player(state, 1, None) == PASS


def test_avoids_self_atari_when_something_else_is_possible() -> None:
    # Every empty point but B5 would leave a lone black stone with one liberty (E5 is suicide); White's
    # wall has a dozen liberties, so there is nothing to capture or rescue either.
    state, diagram = from_diagram(
        """
        5 . . . O .
        4 O O O O O
        3 . . O . .
        2 O O O O O
        1 . . O . .
          A B C D E
        """
    )
    assert len(state.legal_points(0)) == 11
    for seed in range(30):
        move = SimplePlayer(random.Random(seed))(state, 0, None)
        assert move == Place(diagram.point("B5")), f"seed {seed}: {move} puts a stone in atari"


def test_passes_when_every_point_left_is_self_atari() -> None:
    state, _ = from_diagram(
        """
        5 . . O . .
        4 O O O O O
        3 . . O . .
        2 O O O O O
        1 . . O . .
          A B C D E
        """
    )
    assert len(state.legal_points(0)) == 12  # every one of them legal, and every one a stone in atari
    for seed in range(10):
        assert SimplePlayer(random.Random(seed))(state, 0, None) == PASS


def test_prefers_points_away_from_the_edge_early() -> None:
    state = new_game(19, Rules(allowed_sizes=(19,)))
    for seed in range(30):
        move = SimplePlayer(random.Random(seed))(state, 0, None)
        assert isinstance(move, Place)
        row, col = divmod(move.point, 19)
        assert min(row, col, 18 - row, 18 - col) >= 2


def test_passes_on_a_finished_game() -> None:
    state = new_game(5, preset("chinese", 5)).play(PASS).play(PASS)
    assert SimplePlayer(random.Random(0))(state, 0, None) == PASS
