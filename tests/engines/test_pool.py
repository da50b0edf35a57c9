"""Searches in worker processes, driven from asyncio; and the compact game records they travel as."""

from __future__ import annotations

import asyncio
import random

import pytest

from miai.core.go import PASS, RESIGN, TIMEOUT, GoState, Place, Rules, new_game
from miai.core.go.rules import HandicapBonus, KoRule, Scoring
from miai.engines.pool import EnginePool, SearchTask, run_task
from miai.engines.record import decode_state, encode_state


def same_game(a: GoState, b: GoState) -> None:
    assert a.moves() == b.moves()
    assert a.position() == b.position()
    assert (a.hash, a.prev_hash, a.to_move, a.passes, a.rules, a.handicap) == (
        b.hash,
        b.prev_hash,
        b.to_move,
        b.passes,
        b.rules,
        b.handicap,
    )
    assert (a.captured_by, a.lost, a.active, a.seats, a.seat, a.ended) == (
        b.captured_by,
        b.lost,
        b.active,
        b.seats,
        b.seat,
        b.ended,
    )
    assert sorted(a.legal_points()) == sorted(b.legal_points())


def test_records_rebuild_the_same_state() -> None:
    rules = Rules(
        ko=KoRule.SITUATIONAL,
        scoring=Scoring.TERRITORY,
        komi=(0.0, 0.5),
        handicap_bonus=HandicapBonus.N,
        move_limit_rounds=200,
    )
    state = new_game(9, rules, handicap=3)
    rng = random.Random(1)
    for _ in range(60):
        state = state.play(rng.choice(state.legal_moves()[:-1]))
    same_game(decode_state(encode_state(state)), state)

    # Three teams, a resignation (followed by automatic passes when they happen) and setup stones.
    multi = new_game(
        5, Rules(komi=(0.0, 0.0, 0.0), remove_inactive_stones=True), colours=3, seats=[2, 1, 1], setup={12: 2}
    )
    for _ in range(9):
        multi = multi.play(rng.choice(multi.legal_moves()))
    multi = multi.play(RESIGN).play(RESIGN).play(PASS).play(TIMEOUT)
    same_game(decode_state(encode_state(multi)), multi)


@pytest.mark.parametrize(
    "record",
    [
        {"game": "chess"},
        {"game": "go"},
        {
            "game": "go",
            "size": 9,
            "colours": 2,
            "seats": [1, 1],
            "rules": {},
            "handicap": [],
            "setup": [],
            "to_move": 0,
            "moves": [[0, "Z9"]],
        },
    ],
)
def test_malformed_records_are_refused(record: dict[str, object]) -> None:
    with pytest.raises(ValueError, match=r"record|move"):
        decode_state(record)


def test_a_task_runs_in_this_process_too() -> None:
    state = new_game(7, Rules(komi=(0.0, 7.5))).play(Place(24))
    text = run_task(SearchTask(encode_state(state), 2, seed=3))
    assert text == run_task(SearchTask(encode_state(state), 2, seed=3))  # seeded: the same move
    move = Place(int(text)) if text.isdigit() else PASS
    assert move == PASS or state.is_legal(move)


def test_pool_answers_from_asyncio_without_blocking() -> None:
    async def scenario() -> None:
        async with EnginePool(workers=1) as pool:
            state = new_game(7, Rules(komi=(0.0, 7.5)))
            ticks = 0

            async def heartbeat() -> None:
                nonlocal ticks
                while True:
                    await asyncio.sleep(0.01)
                    ticks += 1

            beat = asyncio.create_task(heartbeat())
            first, second = await asyncio.gather(
                pool.choose_move(state, level=2, seed=5), pool.choose_move(state, level=2, seed=5)
            )
            beat.cancel()
            assert first == second and state.is_legal(first)
            assert ticks > 5  # the event loop kept running while the worker searched
            from miai.core import hex

            board = hex.new_game(5, opening="none")
            assert await pool.choose_move(board, level=1, seed=1) in board.legal_moves()
        assert pool.closed
        with pytest.raises(RuntimeError, match="shut down"):
            await pool.choose_move(state, level=1, seed=1)

    asyncio.run(scenario())


def test_other_games_travel_without_their_record() -> None:
    """A long Tanbo record is too deep to pickle; the portable state keeps the position and one step back."""
    import pickle

    from miai.core import hex, tanbo
    from miai.engines.pool import portable

    state = tanbo.new_game()
    rng = random.Random(1)
    while state.plies < 400 and not state.is_over:
        state = state.play(rng.choice(state.legal_moves()))
    light = portable(state)
    assert light.parent is not None and light.parent.parent is None
    back = pickle.loads(pickle.dumps(light))
    assert (back.cells, back.to_move, back.plies, back.counts) == (
        state.cells,
        state.to_move,
        state.plies,
        state.counts,
    )
    assert back.legal_moves() == state.legal_moves()
    opened = hex.new_game(7).play(hex.parse_move("c3", 7))
    assert hex.SWAP in pickle.loads(pickle.dumps(portable(opened))).legal_moves()  # swap needs the step back
