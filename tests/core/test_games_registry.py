"""The registered game kinds: options, move text, and a generic conformance test in the OpenSpiel spirit.

The conformance test plays seeded random games of every kind through nothing but the common interface
(`new_game`, `legal_moves`, `play`, `is_over`, `rewards`, `parse_move`, `format_move`) and checks that the
pieces agree with each other; it knows no rule of any game.
"""

from __future__ import annotations

import random
from array import array
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import miai.core.games  # noqa: F401  (registers the kinds)
from miai.core import amazons, hex, tanbo
from miai.core.go import GoState, Place
from miai.core.registry import KINDS, GameKind, kind
from miai.core.twoplayer import RESIGN, TIMEOUT

OPTION_SETS: list[tuple[str, dict[str, Any]]] = [
    ("go", {"size": 9}),
    ("go", {"size": 7, "colours": 3}),
    ("go", {"size": 9, "preset": "chinese", "handicap": 2}),
    ("go", {"size": 5, "colours": 4, "seats": [2, 1, 1, 3]}),
    ("amazons", {}),
    ("hex", {"size": 5}),
    ("hex", {"size": 7, "opening": "centre_row_ban"}),
    ("hex", {"size": 11, "opening": "none"}),
    ("tanbo", {"size": 9}),
    ("tanbo", {}),
    ("tanbo", {"size": 13, "cap": 40}),
]


def snapshot(state: Any) -> tuple[Any, ...]:
    """Every field of a state, with mutable buffers copied, so a later change shows up."""
    values = []
    for name in type(state).__slots__:
        value = getattr(state, name)
        values.append(bytes(value) if isinstance(value, array | bytearray) else value)
    return tuple(values)


def test_every_kind_is_registered_with_a_stable_key() -> None:
    assert {"go", "amazons", "hex", "tanbo"} <= set(KINDS)
    for key, game in KINDS.items():
        assert isinstance(game, GameKind) and game.key == key and game.title
    with pytest.raises(ValueError, match="unknown game 'chess'; known: amazons, go, hex, tanbo"):
        kind("chess")


def test_default_options_start_the_default_games() -> None:
    go = kind("go").new_game({})
    assert isinstance(go, GoState) and go.size == 19 and go.colours == 2 and go.rules.komi_of(1) == 6.5
    board = kind("amazons").new_game({})
    assert isinstance(board, amazons.AmazonsState) and board.size == 10 and board.to_move == amazons.WHITE
    hexes = kind("hex").new_game({})
    assert isinstance(hexes, hex.HexState) and (hexes.size, hexes.opening) == (11, hex.Opening.SWAP)
    roots = kind("tanbo").new_game({})
    assert isinstance(roots, tanbo.TanboState) and (roots.size, roots.cap) == (19, 2000)


def test_go_options_reach_the_go_core() -> None:
    three = kind("go").new_game({"size": 7, "colours": 3})
    assert three.colours == 3 and three.rules.komi == (0.0, 0.0, 0.0)  # dipgo picked for 3 colours
    handicap = kind("go").new_game({"size": 9, "handicap": 3})
    assert handicap.handicap == 3 and handicap.to_move == 1 and handicap.rules.komi_of(1) == 0.5
    komi = kind("go").new_game({"size": 13, "preset": "itsyourturn", "komi": 7})
    assert komi.rules.komi_of(1) == 7.0 and komi.rules.move_limit_rounds == 125
    seats = kind("go").new_game({"size": 9, "seats": [2, 3]})
    assert seats.seats == ((0, 1), (0, 1, 2))


@pytest.mark.parametrize(
    ("key", "options", "words"),
    [
        ("go", {"board": 9}, "unknown go option\\(s\\) 'board'"),
        ("go", {"size": "9"}, "size must be a whole number"),
        ("go", {"size": 4}, "size must be one of 5..25"),
        ("go", {"size": 8, "preset": "dgo"}, "board size 8 is not allowed"),
        ("go", {"preset": "chess"}, "unknown rules preset 'chess'"),
        ("go", {"colours": 3, "preset": "dgo"}, "colours"),
        ("go", {"komi": "lots"}, "komi must be a number"),
        ("go", {"seats": "ab"}, "seats must list"),
        ("go", {"seats": 5}, "seats must list"),
        ("go", {"size": 7, "handicap": 2}, "handicap"),
        ("amazons", {"size": 8}, "size must be one of 10"),
        ("hex", {"size": 4}, "size must be one of 5..19"),
        ("hex", {"size": 20}, "size must be one of 5..19"),
        ("hex", {"size": 12, "opening": "centre_row_ban"}, "odd board size"),
        ("hex", {"opening": 3}, "opening must be one of"),
        ("tanbo", {"size": 11}, "size must be one of 19, 9, 13"),
        ("tanbo", {"cap": 0}, "cap must be one of"),
        ("tanbo", {"cap": True}, "cap must be a whole number"),
    ],
)
def test_bad_options_get_clear_messages(key: str, options: dict[str, Any], words: str) -> None:
    with pytest.raises(ValueError, match=words):
        kind(key).new_game(options)


def test_options_must_be_a_mapping() -> None:
    with pytest.raises(ValueError, match="must be a mapping"):
        kind("hex").new_game([("size", 5)])  # type: ignore[arg-type]


@pytest.mark.parametrize(("key", "options"), OPTION_SETS)
def test_every_first_move_round_trips_through_its_text(key: str, options: dict[str, Any]) -> None:
    game = kind(key)
    state = game.new_game(options)
    for move in state.legal_moves():
        text = game.format_move(state, move)
        assert text == text.strip() and game.parse_move(state, text) == move
        assert game.parse_move(state, f"  {text.swapcase()} ") == move
    assert game.parse_move(state, "resign") == RESIGN


@pytest.mark.parametrize("key", ["go", "amazons", "hex", "tanbo"])
@pytest.mark.parametrize("text", ["", "zz99", "a", "!!", "k10-k11/k12/k13"])
def test_bad_move_text_is_a_value_error(key: str, text: str) -> None:
    game = kind(key)
    with pytest.raises(ValueError) as caught:
        game.parse_move(game.new_game({}), text)
    assert str(caught.value)


def test_move_text_needs_a_state_of_the_kind() -> None:
    with pytest.raises(ValueError, match="not a hex game"):
        kind("hex").parse_move(kind("tanbo").new_game({}), "a1")
    with pytest.raises(ValueError, match="move is text"):
        kind("tanbo").parse_move(kind("tanbo").new_game({}), 5)  # type: ignore[arg-type]


# --- conformance


def illegal_candidates(state: Any, rng: random.Random) -> list[Any]:
    """Moves of the right shape that are not legal here (checked against legal_moves, not the rules)."""
    legal = set(state.legal_moves())
    shaped: list[Any]
    if isinstance(state, amazons.AmazonsState):
        n2 = state.size * state.size
        shaped = [
            amazons.QueenMove(rng.randrange(n2), rng.randrange(n2), rng.randrange(n2)) for _ in range(20)
        ]
    else:
        shaped = [Place(rng.randrange(state.size * state.size)) for _ in range(20)]
    return [m for m in shaped if m not in legal]


def play_conformance_game(game: GameKind, options: dict[str, Any], seed: int) -> Any:
    rng = random.Random(seed)
    state = game.new_game(options)
    resign_at = rng.randrange(400) if seed % 3 == 0 else None
    for ply in range(5000):
        players = state.players
        assert players >= 2 and 0 <= state.to_move < players
        moves = state.legal_moves()
        if state.is_over:
            assert moves == []
            with pytest.raises(ValueError):
                state.play(RESIGN)
            break
        assert moves and len(set(moves)) == len(moves), "legal moves are present and distinct"
        before = snapshot(state)
        for wrong in illegal_candidates(state, rng)[:3]:
            with pytest.raises(ValueError):
                state.play(wrong)
        if ply == resign_at:
            mover = state.to_move
            after = state.play(game.parse_move(state, "resign"))
            assert snapshot(state) == before
            if players == 2:
                assert after.is_over and after.rewards()[mover] == 0.0
            state = after
            continue
        move = rng.choice(moves)
        assert game.parse_move(state, game.format_move(state, move)) == move
        after = state.play(move)
        assert after is not state and snapshot(state) == before, "play changed its input"
        state = after
    else:
        pytest.fail(f"{game.key} {options} did not end in 5000 plies")
    rewards = state.rewards()
    assert len(rewards) == state.players
    assert all(0.0 <= r <= 1.0 for r in rewards) and abs(sum(rewards) - 1.0) < 1e-9
    return state


@pytest.mark.parametrize("seed", range(3))
@pytest.mark.parametrize(("key", "options"), OPTION_SETS)
def test_random_games_through_the_common_interface(key: str, options: dict[str, Any], seed: int) -> None:
    play_conformance_game(kind(key), options, seed)


@pytest.mark.parametrize("key", ["amazons", "hex", "tanbo"])
def test_timeouts_end_two_player_games_like_resignations(key: str) -> None:
    state = kind(key).new_game({"size": 9} if key == "tanbo" else {})
    timed_out = state.play(TIMEOUT)
    assert timed_out.is_over and timed_out.rewards()[state.to_move] == 0.0
    assert timed_out.reason.value == "timeout"


@st.composite
def kind_and_picks(draw: st.DrawFn) -> tuple[str, dict[str, Any], list[int]]:
    key, options = draw(st.sampled_from(OPTION_SETS))
    return key, options, draw(st.lists(st.integers(0, 10_000), max_size=60))


@settings(max_examples=40, deadline=None)
@given(kind_and_picks())
def test_play_never_mutates_its_input(case: tuple[str, dict[str, Any], list[int]]) -> None:
    key, options, picks = case
    state = kind(key).new_game(options)
    for pick in picks:
        if state.is_over:
            break
        moves = state.legal_moves()
        before = snapshot(state)
        following = state.play(moves[pick % len(moves)])
        assert snapshot(state) == before
        state = following
