"""Searches in worker processes, driven from asyncio; and the compact game records they travel as."""

from __future__ import annotations

import asyncio
import os
import random

import pytest

from miai.core.go import PASS, RESIGN, TIMEOUT, GoState, Place, Rules, new_game
from miai.core.go.rules import HandicapBonus, KoRule, Scoring
from miai.engines.pool import ENGINE_NICENESS, EnginePool, SearchTask, run_task
from miai.engines.record import decode_move, decode_state, encode_state


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


def test_a_game_keeps_its_worker_and_its_player() -> None:
    """Each game goes to the same worker process, whose player follows it; a dead worker is replaced."""
    import os
    import signal

    from miai.engines import players
    from miai.engines.players import MoveRequest

    async def scenario() -> None:
        async with EnginePool(workers=2) as pool:
            state = new_game(7, Rules(komi=(0.0, 7.5)))

            def ask(game: int, memo: dict[str, object] | None = None) -> MoveRequest:
                return MoveRequest(
                    game, seat=4, state=encode_state(state), level=2, seed=1, seconds=2.0, memo=memo
                )

            pids = {game: await pool.run_for(game, os.getpid) for game in (10, 11)}
            assert pids[10] != pids[11]
            for game in (10, 11, 10):
                choice = await pool.choose(ask(game))
                assert state.is_legal(decode_move(choice.move)) and choice.memo is not None
                state = state.play(decode_move(choice.move))
            held = await pool.run_for(10, players.held)
            assert [(h["game"], h["moves"]) for h in held] == [(10, 2)]  # both of game 10's moves, one player
            assert [(h["game"], h["moves"]) for h in await pool.run_for(11, players.held)] == [(11, 1)]
            assert await pool.run_for(10, os.getpid) == pids[10]
            assert await pool.release(10) == 1 and await pool.run_for(10, players.held) == []

            os.kill(pids[10], signal.SIGKILL)  # the worker dies (out of memory, killed by an operator)
            choice = await pool.choose(ask(10, choice.memo))  # answered by a fresh worker in its place
            assert state.is_legal(decode_move(choice.move))
            assert await pool.run_for(10, os.getpid) not in (pids[10], pids[11])
            assert await pool.run_for(11, os.getpid) == pids[11]  # the other game's worker was not touched
            with pytest.raises(ValueError, match="game"):
                await pool.choose(MoveRequest(True, 4, encode_state(state), 2, 1, None))  # type: ignore[arg-type]
            assert await pool.run_call(sum, [1, 2, 3]) == 6

    asyncio.run(scenario())


def test_engine_processes_give_way_to_the_server_on_a_shared_cpu() -> None:
    """A busy engine must not slow the people's requests on the same host: its processes run at a lower
    priority than the process that started them."""

    async def scenario() -> tuple[int, int]:
        async with EnginePool(workers=1) as pool:
            return os.nice(0), await pool.run_call(os.nice, 0)

    mine, engine = asyncio.run(scenario())
    assert engine == min(19, mine + ENGINE_NICENESS)


def pid_after(seconds: float) -> int:
    import time

    time.sleep(seconds)
    return os.getpid()


def test_busy_games_spread_over_the_workers_whatever_their_ids() -> None:
    """Games 10 and 12 (the same remainder for two workers) do not queue behind each other: a new game goes
    to the least busy worker, and stays there until it is released."""

    async def scenario() -> None:
        async with EnginePool(workers=2) as pool:
            busy = asyncio.ensure_future(pool.run_for(10, pid_after, 1.0))
            await asyncio.sleep(0)  # game 10 is thinking
            other = await pool.run_for(12, pid_after, 0.0)
            first = await busy
            assert other != first
            assert await pool.run_for(12, os.getpid) == other and await pool.run_for(10, os.getpid) == first
            assert await pool.release(12) == 0  # no player held, and the game is forgotten
            assert await pool.release(99) == 0  # never played here: nothing to do

    asyncio.run(scenario())


def test_a_move_asked_for_during_the_warm_up_waits_for_one_engine_not_all() -> None:
    """The warm-up loads Go's engine, then each other game's as a job of its own: a computer move asked for
    meanwhile runs after the job at hand (it used to wait until every game's engine was loaded, minutes on
    a fresh install)."""

    async def scenario() -> tuple[bool, list[int]]:
        async with EnginePool(workers=1) as pool:
            warming = asyncio.create_task(pool.warm_up())
            await asyncio.sleep(0.3)
            await pool.choose_move(new_game(9, Rules()), 1, 0, 0.2)
            moved_first = not warming.done()
            return moved_first, await warming

    moved_first, pids = asyncio.run(scenario())
    assert moved_first
    assert len(pids) == 1 and pids[0] != os.getpid()
