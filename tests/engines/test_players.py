"""One computer player per game: held between moves, released at the end, and restored from its memo."""

from __future__ import annotations

import json
import os
from collections.abc import Iterator
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest

from miai.core.go import PASS, RESIGN, GoState, Move, Place, Rules, new_game
from miai.core.go.rules import Scoring
from miai.engines import players
from miai.engines.go_player import GoPlayer, Style, fingerprint
from miai.engines.levels import make_move_generator
from miai.engines.players import MoveRequest, PlayerCache
from miai.engines.record import decode_move, encode_state
from miai.formats.ascii import parse_diagram
from miai.formats.gtp.gnugo import find_gnugo
from tests.conftest import need

# Black's group has one eye left and White owns the rest: Black's searches are hopeless from the start.
HOPELESS = """
9 O O O O O O O O O
8 O . O O O O O . O
7 O O O O O O O O O
6 O O O . . . O O O
5 O O O . . . O O O
4 O O O . . . O O O
3 O O O O O O O O O
2 X X X O . O O O O
1 . X . X O O O O .
  A B C D E F G H J
"""
GAME = 987_654_321  # far from any id another test would use


@pytest.fixture(autouse=True)
def empty_cache() -> Iterator[None]:
    players.cache().clear()
    yield
    players.cache().clear()


def request(state: GoState, level: int | str = 6, memo: Any = None, game: int | None = GAME) -> MoveRequest:
    return MoveRequest(game, seat=7, state=encode_state(state), level=level, seed=1, seconds=5.0, memo=memo)


def held(game: int = GAME) -> list[dict[str, Any]]:
    return [h for h in players.held() if h["game"] == game]


def white_reply(state: GoState) -> GoState:
    return state.play(make_move_generator(3, None, 9)(state, 1, None))


def hopeless() -> GoState:
    return new_game(9, Rules(komi=(0.0, 7.5)), setup=parse_diagram(HOPELESS).stones, to_move=0)


def test_the_same_player_follows_a_game_and_reuses_its_tree() -> None:
    state = new_game(9, Rules(komi=(0.0, 7.5)))
    first = decode_move(players.choose(request(state)).move)
    assert held() == [
        {"game": GAME, "seat": 7, "kind": "go", "level": 6, "moves": 1, "idle": pytest.approx(0, abs=5)}
        | {"engine": "miai", "reused": 0}
    ]
    twin = make_move_generator(6, 5.0, seed=1)  # searches exactly as the held player did (same seed)
    assert isinstance(twin, GoPlayer) and twin.choose(state) == first and twin.last is not None
    reply = twin.last.principal_variation[1]  # a reply the held player's tree explored
    state = state.play(first).play(reply)
    players.choose(replace(request(state), seconds=3.0))  # another time per move: the same player
    [player] = held()
    assert player["moves"] == 2 and player["reused"] > 0  # the second search started from the first's tree
    players.choose(request(state, level=5))  # another level: a player of its own
    assert [(h["level"], h["moves"]) for h in held()] == [(5, 1)]
    assert players.release(GAME) == 1 and held() == [] and players.release(GAME) == 0


def test_a_one_off_search_keeps_no_player() -> None:
    choice = players.choose(request(new_game(7), level=2, game=None))
    assert decode_move(choice.move) != RESIGN and choice.memo is None
    assert players.held() == []


def test_other_games_are_held_with_their_compiled_searcher() -> None:
    from miai.core import hex

    board = hex.new_game(5, opening="none")
    choice = players.choose(MoveRequest(GAME, 3, board, 1, seed=2, seconds=1.0))
    assert choice.move in board.legal_moves() and choice.memo is None
    assert [(h["kind"], h["engine"], h["moves"]) for h in held()] == [
        ("miai.core.hex.HexState", "compiled", 1)
    ]


def play_hopeless(memo_travels: bool) -> list[Move]:
    """Three moves of a lost game, each in a "fresh process": the player is released between moves."""
    state, memo, moves = hopeless(), None, []
    for _ in range(3):
        choice = players.choose(request(state, memo=memo if memo_travels else None))
        players.release(GAME)  # as if the next move ran in another worker
        memo = json.loads(json.dumps(choice.memo))  # stored as JSON between moves
        move = decode_move(choice.move)
        moves.append(move)
        if move == RESIGN:
            break
        state = white_reply(state.play(move))
    return moves


def test_the_memo_carries_the_resign_streak_to_a_fresh_player() -> None:
    with_memo = play_hopeless(memo_travels=True)
    assert len(with_memo) == 3 and with_memo[-1] == RESIGN and RESIGN not in with_memo[:-1]
    assert RESIGN not in play_hopeless(memo_travels=False)  # every fresh player starts its streak afresh


def test_a_held_player_takes_a_newer_memo_only() -> None:
    start = hopeless()
    choice = players.choose(request(start))
    old = choice.memo
    assert old is not None and old["low"] == 1
    state = white_reply(start.play(decode_move(choice.move)))
    newer = dict(old, moves=len(state.moves()), at=fingerprint(state, len(state.moves())), low=2)
    assert decode_move(players.choose(request(state, memo=newer)).move) == RESIGN  # 2 + this search = 3
    players.release(GAME)
    assert players.choose(request(start)).move == choice.move
    stale = dict(old, low=2)  # made at the start: the held player already knows as much
    assert decode_move(players.choose(request(state, memo=stale)).move) != RESIGN


def dynamic_player(monkeypatch: pytest.MonkeyPatch, gives: list[float]) -> GoPlayer:
    player = GoPlayer(Style(playouts=50, seconds=None, dynamic_komi=True), seed=1)
    search = player.search.search

    def spy(state: GoState, colour: int, playouts: int | None, seconds: float | None, give: float) -> object:
        gives.append(give)
        return search(state, colour, playouts, seconds, give)

    monkeypatch.setattr(player.search, "search", spy)
    return player


def test_the_memo_carries_the_dynamic_komi(monkeypatch: pytest.MonkeyPatch) -> None:
    state = new_game(13, Rules(komi=(0.0, 7.5)))
    first = GoPlayer(Style(playouts=50, seconds=None, dynamic_komi=True), seed=1)
    state = state.play(first.choose(state)).play(Place(0))  # (after a pass Black would pass: it wins)
    first.komi.points = 4.0
    gives: list[float] = []
    fresh = dynamic_player(monkeypatch, gives)
    assert fresh.restore(first.memo(), state)
    fresh.choose(state)
    unrestored = dynamic_player(monkeypatch, gives)
    unrestored.choose(state)
    assert gives == [4.0, 0.0]


def good_memo(state: GoState) -> dict[str, Any]:
    n = len(state.moves())
    return {"v": 1, "moves": n, "at": fingerprint(state, n), "low": 2, "komi": 1.5}


@pytest.mark.parametrize(
    "change",
    [
        {"v": 2},
        {"v": "1"},
        {"moves": True},
        {"moves": 10**30},
        {"moves": -2},
        {"moves": 1.5},
        {"low": float("nan")},
        {"low": 10**100},
        {"low": -1},
        {"low": "2"},
        {"komi": float("nan")},
        {"komi": float("inf")},
        {"komi": 1e308},
        {"komi": -1.0},
        {"komi": None},
        {"at": "0" * 32},  # another game or line of play
        {"at": 5},
        {"at": "x\0" * 10_000},
    ],
)
def test_a_hostile_memo_is_ignored(change: dict[str, Any]) -> None:
    state = new_game(9, Rules(komi=(0.0, 7.5))).play(PASS)
    player = GoPlayer(Style(playouts=50, seconds=None), seed=1)
    assert player.restore(good_memo(state), state)  # the memo that was tampered with was fine
    fresh = GoPlayer(Style(playouts=50, seconds=None), seed=1)
    assert not fresh.restore(good_memo(state) | change, state)
    assert (fresh.memo()["low"], fresh.memo()["komi"], fresh.memo()["moves"]) == (0, 0.0, -1)
    choice = players.choose(request(state, memo=good_memo(state) | change))
    assert choice.memo is not None and choice.memo["low"] == 0  # the one search so far: not hopeless


def test_a_memo_never_makes_the_player_resign_without_a_hopeless_search_of_its_own() -> None:
    state = new_game(9, Rules(komi=(0.0, 7.5))).play(PASS)
    player = GoPlayer(Style(playouts=50, seconds=None), seed=1)
    assert player.restore(good_memo(state) | {"low": 500}, state)
    assert player.memo()["low"] == 2  # the default policy resigns after 3
    assert player.choose(state) != RESIGN


@pytest.mark.parametrize("memo", [[1, 2], "memo", 5, {"v": 1}, {}])
def test_memos_that_are_not_memos_are_ignored(memo: Any) -> None:
    state = new_game(7)
    assert not GoPlayer(Style(playouts=50, seconds=None)).restore(memo, state)
    assert decode_move(players.choose(request(state, level=2, memo=memo)).move) != RESIGN


@pytest.mark.parametrize(
    ("field", "value", "message"),
    [
        ("game", True, "game"),
        ("game", "12", "game"),
        ("seat", None, "seat"),
        ("seed", -1, "seed"),
        ("seed", 2**80, "seed"),
        ("level", True, "level"),
        ("level", "x" * 1000, "level"),
        ("level", 0, "no external engine 0"),
        ("level", "nonexistent-engine", "no external engine"),
        ("seconds", float("nan"), "time"),
        ("seconds", -1.0, "time"),
        ("seconds", 10**9, "time"),
        ("seconds", "5", "time"),
        ("state", {"game": "go"}, "record"),
    ],
)
def test_bad_requests_are_refused_clearly(field: str, value: Any, message: str) -> None:
    with pytest.raises(ValueError, match=message):
        players.choose(replace(request(new_game(7), level=2), **{field: value}))
    assert players.held() == []


def test_a_finished_game_gets_no_move_and_keeps_no_new_player() -> None:
    over = new_game(7, Rules(scoring=Scoring.AREA)).play(PASS).play(PASS)
    with pytest.raises(ValueError, match="over"):
        players.choose(request(over, level=2))
    assert [h["moves"] for h in held()] == [0]  # made, but it served no move


# ----------------------------------------------------------------- the cache on its own


class FakeSeat:
    def __init__(self, name: str, closed: list[str], fail: bool = False) -> None:
        self.name, self.closed, self.fail = name, closed, fail

    def move(self, state: Any, seconds: float | None, seed: int) -> Any:
        return self.name

    def memo(self) -> dict[str, Any] | None:
        return None

    def restore(self, memo: object, state: Any) -> bool:
        return False

    def close(self) -> None:
        self.closed.append(self.name)
        if self.fail:
            raise OSError("the engine would not quit")

    def stats(self) -> dict[str, Any]:
        return {}


class Clock:
    def __init__(self) -> None:
        self.t = 100.0

    def __call__(self) -> float:
        return self.t


def use(cache: PlayerCache, game: int, closed: list[str], spec: Any = ("go", 1), fail: bool = False) -> None:
    entry = cache.take((game, 1), spec, lambda: FakeSeat(f"{game}{spec[1]}", closed, fail))
    cache.give_back(entry, served=True)


def test_the_least_recently_used_player_goes_first_and_is_closed() -> None:
    closed: list[str] = []
    cache = PlayerCache(capacity=2, now=Clock())
    use(cache, 1, closed)
    use(cache, 2, closed)
    use(cache, 1, closed)  # game 1 used again: game 2 is now the oldest
    use(cache, 3, closed)
    assert closed == ["21"] and [h["game"] for h in cache.held()] == [1, 3]


def test_idle_players_expire_and_another_spec_replaces_a_player() -> None:
    closed: list[str] = []
    clock = Clock()
    cache = PlayerCache(idle=60.0, now=clock)
    use(cache, 1, closed)
    clock.t += 30
    use(cache, 2, closed)
    assert cache.sweep() == 0
    clock.t += 40
    assert cache.sweep() == 1 and closed == ["11"]
    use(cache, 2, closed, spec=("go", 5))
    assert closed == ["11", "21"] and [h["level"] for h in cache.held()] == [5]


def test_a_player_that_fails_to_close_does_not_keep_the_others_open() -> None:
    closed: list[str] = []
    cache = PlayerCache(now=Clock())
    use(cache, 1, closed, fail=True)
    cache.take((1, 2), ("go", 1), lambda: FakeSeat("12", closed))
    assert cache.release(1) == 2 and sorted(closed) == ["11", "12"]


def test_a_thinking_player_is_not_handed_out_twice() -> None:
    cache = PlayerCache(now=Clock())
    entry = cache.take((1, 1), ("go", 1), lambda: FakeSeat("a", []))
    with pytest.raises(RuntimeError, match="already thinking"):
        cache.take((1, 1), ("go", 1), lambda: FakeSeat("b", []))
    assert cache.sweep() == 0 and cache.clear() == 1  # a busy player is not swept either
    cache.give_back(entry, served=False)


# ----------------------------------------------------------------- GNU Go keeps one process per game


def gnugo_children() -> int:
    """GNU Go processes started by this process (Linux /proc)."""
    count = 0
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            text = stat.read_text()
        except OSError:
            continue  # ended meanwhile
        name, _, rest = text.partition(" (")[2].rpartition(") ")
        if name == "gnugo" and int(rest.split()[1]) == os.getpid():
            count += 1
    return count


@pytest.mark.gnugo
def test_gnugo_keeps_one_process_per_game_until_released(monkeypatch: pytest.MonkeyPatch) -> None:
    path = find_gnugo()
    need(path is not None, "GNU Go is not installed")
    need(Path("/proc/self/stat").exists(), "counting processes needs Linux /proc")
    command = [path, "--mode", "gtp", "--level", "0"]
    monkeypatch.setenv("MIAI_EXTERNAL_ENGINES", json.dumps([{"name": "gnugo-quick", "command": command}]))
    assert gnugo_children() == 0
    state = new_game(9, Rules(komi=(0.0, 7.5)))
    counts = []
    for _ in range(6):
        choice = players.choose(request(state, level="gnugo-quick"))
        assert choice.memo is None
        state = state.play(decode_move(choice.move))
        counts.append(gnugo_children())
    assert counts == [1] * 6  # one process for the whole game, not one per move
    assert [(h["engine"], h["moves"]) for h in held()] == [("external", 6)]
    players.choose(request(state, level="gnugo-quick", game=GAME + 1))
    assert gnugo_children() == 2  # another game, another process
    assert players.release(GAME) == 1 and gnugo_children() == 1
    players.choose(request(new_game(9), level="gnugo-quick", game=None))
    assert gnugo_children() == 1  # a one-off search closes its engine at once
    players.choose(request(state, level=2, game=GAME + 1))  # the game's seat changes engine: closed
    assert gnugo_children() == 0
