"""A game's compiled searcher is made once per seat, asked for every move of that seat, and closed with it."""

from __future__ import annotations

import threading
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any, ClassVar

import pytest

from miai.core import hex
from miai.engines import players, searchers
from miai.engines.kernel import jit
from miai.engines.levels import DEFAULT_SECONDS, GameBudget, game_budget
from miai.engines.players import MoveRequest
from miai.engines.result import SearchResult
from miai.engines.searchers import choose_move_any_game

GAME = 987_654_322


class Recording:
    made: ClassVar[list[Recording]] = []

    def __init__(self) -> None:
        self.asked: list[tuple[int, float | None, int]] = []
        self.closed = False
        Recording.made.append(self)

    def move(self, state: Any, level: int, seconds: float | None, seed: int) -> Any:
        self.asked.append((level, seconds, seed))
        return sorted(state.legal_moves(), key=str)[0]

    def evaluate(self, state: Any, playouts: int, seed: int) -> SearchResult[Any]:
        move = self.move(state, 1, None, seed)
        return SearchResult(move, playouts, 0.5, playouts, 0.0, [move])

    def close(self) -> None:
        self.closed = True


@pytest.fixture
def recording(monkeypatch: pytest.MonkeyPatch) -> type[Recording]:
    searchers.searcher_for(hex.new_game(5, opening="none"))  # the real engines registered first
    monkeypatch.setitem(searchers.SEARCHERS, hex.HexState, Recording)
    Recording.made = []
    return Recording


def test_a_seat_keeps_one_searcher_for_the_whole_game(recording: type[Recording]) -> None:
    board = hex.new_game(5, opening="none")
    try:
        for seed in (1, 2):
            choice = players.choose(MoveRequest(GAME, seat=3, state=board, level=7, seed=seed, seconds=0.5))
            assert choice.move in board.legal_moves()
            board = board.play(choice.move)
            board = board.play(sorted(board.legal_moves(), key=str)[-1])
        assert len(recording.made) == 1 and recording.made[0].asked == [(7, 0.5, 1), (7, 0.5, 2)]
        assert [h["engine"] for h in players.held()] == ["compiled"]
    finally:
        players.release(GAME)
    assert recording.made[0].closed


def test_a_one_off_search_closes_its_searcher(recording: type[Recording]) -> None:
    board = hex.new_game(5, opening="none")
    assert choose_move_any_game(board, 4, seed=3, seconds=0.2) in board.legal_moves()
    assert len(recording.made) == 1 and recording.made[0].closed


@pytest.mark.parametrize("level", [0, 11, True, 2.5])
def test_levels_outside_one_to_ten_are_refused_first(recording: type[Recording], level: Any) -> None:
    with pytest.raises(ValueError, match=r"1\.\.10"):
        choose_move_any_game(hex.new_game(5, opening="none"), level, seed=1)
    assert recording.made == []


@pytest.mark.parametrize("seconds", [float("nan"), float("inf"), -1.0, 0.0])
def test_an_unusable_think_time_gives_the_level_its_own(seconds: float) -> None:
    assert game_budget(10, seconds) == game_budget(10, None) == GameBudget(0.0, DEFAULT_SECONDS, None)
    assert game_budget(3, seconds).seconds == game_budget(3, None).seconds > 0


def test_lower_levels_count_playouts_within_a_time_cap_and_err_more() -> None:
    low, high = game_budget(1, 30.0), game_budget(9, 30.0)
    assert low.playouts is not None and high.playouts is not None and low.playouts < high.playouts
    assert low.blunders > high.blunders == 0.0 and low.seconds <= 30.0 and game_budget(9, 0.5).seconds == 0.5


def test_seats_asking_while_the_engines_load_all_get_the_compiled_searcher(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The engines' imports take seconds (numba): a seat asking meanwhile must wait, not fall back to the
    generic search for its whole game."""
    monkeypatch.setattr(searchers, "SEARCHERS", {})
    monkeypatch.setattr(searchers, "_registered", threading.Event())

    def slow_import() -> None:
        time.sleep(0.3)
        searchers.SEARCHERS[hex.HexState] = Recording

    monkeypatch.setattr(searchers, "_import_engines", slow_import)
    board = hex.new_game(5, opening="none")
    with ThreadPoolExecutor(4) as threads:
        found = list(threads.map(lambda _: searchers.searcher_for(board), range(4)))
    assert all(isinstance(s, Recording) for s in found)


def test_a_kernel_edit_drops_the_compiled_cache_of_every_game(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The games' compiled code calls into the kernel; numba checks only a function's own file."""
    kernel, game = tmp_path / "kernel", tmp_path / "game"
    for folder in (kernel, game):
        (folder / "__pycache__").mkdir(parents=True)
        (folder / "code.py").write_text("x = 1\n")
    monkeypatch.setattr(jit, "_HERE", kernel)
    jit.drop_stale_cache(game)
    cached = game / "__pycache__" / "search.nbc"
    cached.write_bytes(b"machine code")
    jit.drop_stale_cache(game)
    assert cached.exists()  # nothing changed
    (kernel / "code.py").write_text("x = 2\n")
    jit.drop_stale_cache(game)
    assert not cached.exists()
