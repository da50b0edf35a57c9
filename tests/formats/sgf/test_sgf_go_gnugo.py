"""GNU Go reads what dump_go writes, and load_go's `upto` means what GNU Go's `loadsgf FILE N` means."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from miai.core.go import PASS, RESIGN, TIMEOUT, GoState, KoRule, Pass, Place, Rules, new_game
from miai.formats.gtp import GtpController, Vertex, find_gnugo, gnugo_channel
from miai.formats.sgf.go import GoRecord, dump_go, load_go
from miai.formats.sgf.times import TimeLeft
from tests.conftest import need, shared_data

RECORDS = 10


Chosen = list[tuple[str, bytes, GoRecord]]


@pytest.fixture(scope="module")
def gnugo() -> Iterator[GtpController]:
    need(find_gnugo() is not None, "GNU Go not installed")
    with GtpController(gnugo_channel(level=0, timeout=60.0)) as controller:
        yield controller


@pytest.fixture(scope="module")
def chosen() -> Chosen:
    """Real records GNU Go can play (5..19 lines): four with handicap, four with passes, two others."""
    root = shared_data("gnugo", "games")
    handicap: Chosen = []
    passes: Chosen = []
    plain: Chosen = []
    for path in sorted(root.rglob("*.sgf")):
        data = path.read_bytes()
        if not data.strip():
            continue
        record = load_go(data)
        state = record.state
        if not 5 <= state.size <= 19 or not record.moves_played:
            continue
        entry = (str(path.relative_to(root)), data, record)
        has_pass = any(isinstance(m, Pass) for _, m in state.moves())
        if state.handicap and len(handicap) < 4:
            handicap.append(entry)
        elif has_pass and len(passes) < 4:
            passes.append(entry)
        elif len(plain) < 2:
            plain.append(entry)
        if len(handicap) + len(passes) + len(plain) == RECORDS:
            break
    return handicap + passes + plain


def vertices(state: GoState, colour: int) -> set[Vertex]:
    return {(p % state.size, p // state.size) for p in state.stones(colour)}


def gnugo_sees(gnugo: GtpController, path: Path, size: int, move: int | None = None) -> tuple[object, ...]:
    colour = gnugo.loadsgf(path, move)
    gnugo.size = size  # loadsgf set the board size; the controller uses it to read vertices
    return gnugo.list_stones("black"), gnugo.list_stones("white"), colour


def miai_sees(state: GoState) -> tuple[object, ...]:
    return vertices(state, 0), vertices(state, 1), "bw"[state.to_move]


@pytest.mark.gnugo
def test_gnugo_loads_what_dump_go_writes(gnugo: GtpController, chosen: Chosen, tmp_path: Path) -> None:
    assert len(chosen) == RECORDS
    assert sum(r.state.handicap > 0 for _, _, r in chosen) >= 3
    assert sum(any(isinstance(m, Pass) for _, m in r.state.moves()) for _, _, r in chosen) >= 4
    for name, _, record in chosen:
        path = tmp_path / "game.sgf"
        path.write_bytes(dump_go(record.state, record.info, record.rules_key))
        assert gnugo_sees(gnugo, path, record.state.size) == miai_sees(record.state), name


@pytest.mark.gnugo
def test_upto_matches_gnugo_loadsgf_with_a_move_number(gnugo: GtpController, chosen: Chosen) -> None:
    root = shared_data("gnugo", "games")
    for name, data, record in chosen:
        for move in sorted({1, 2, record.moves_played // 2 + 1, record.moves_played + 1}):
            partial = load_go(data, upto=move)
            seen = gnugo_sees(gnugo, root / name, partial.state.size, move)
            assert seen == miai_sees(partial.state), f"{name} up to move {move}"


@pytest.mark.gnugo
def test_gnugo_loads_miai_games_with_extension_events(gnugo: GtpController, tmp_path: Path) -> None:
    """Seat resignations, timeouts and automatic passes are extension properties GNU Go ignores."""
    black_but_three_eyes = dict.fromkeys((p for p in range(25) if p not in (0, 2, 4)), 0)  # A1 C1 E1 empty
    state = new_game(5, Rules(ko=KoRule.SIMPLE, komi=(0.0, 6.5)), seats=[2, 2], setup=black_but_three_eyes)
    state = state.play(RESIGN).play(Place(4))  # a Black seat leaves; E1 leaves White no legal point
    assert state.auto_pass
    state = state.play(Place(0)).play(Place(2))  # Black fills A1, White captures every black stone at C1
    state = state.play(Place(12)).play(TIMEOUT).play(Place(18)).play(PASS).play(PASS)
    assert state.is_over and state.captured_by == (0, 24)
    path = tmp_path / "miai.sgf"
    path.write_bytes(dump_go(state, {"PB": "Miai", "PW": "Miai"}))
    assert gnugo_sees(gnugo, path, 5) == miai_sees(state)
    assert load_go(path.read_bytes()).state.moves() == state.moves()


@pytest.mark.gnugo
def test_gnugo_loads_records_with_time_left(gnugo: GtpController, tmp_path: Path) -> None:
    """TM, OT and the time left after each move (BL/WL, OB/OW) are standard properties GNU Go accepts."""
    state = new_game(9, Rules(ko=KoRule.SIMPLE, komi=(0.0, 6.5)))
    for point in (40, 41, 31, 49, 22, 50):
        state = state.play(Place(point))
    state = state.play(PASS)
    times = {ply: TimeLeft((ply - 1) % 2, 30 if ply > 4 else 600 - ply * 11.125, 3 if ply > 4 else None)
             for ply in range(1, 8)}
    info = {"TM": "600", "OT": "3x30 byo-yomi"}
    data = dump_go(state, info, times=times)
    assert b"BL[588.875]" in data and b"OW[3]" in data
    path = tmp_path / "timed.sgf"
    path.write_bytes(data)
    assert gnugo_sees(gnugo, path, 9) == miai_sees(state)
    assert gnugo_sees(gnugo, path, 9, 5) == miai_sees(load_go(data, upto=5).state)


@pytest.mark.gnugo
def test_gnugo_loads_records_with_results_dates_and_team_players(
    gnugo: GtpController, tmp_path: Path
) -> None:
    """RE, DT, PB/PW naming a team's players and Miai's MU are game information GNU Go reads past."""
    state = new_game(9, Rules(ko=KoRule.SIMPLE, komi=(0.0, 6.5)), seats=[2, 2])
    for point in (40, 41, 31, 49):
        state = state.play(Place(point))
    state = state.play(PASS).play(PASS)
    players = {0: ["Ann", "Cy"], 1: ["Bob", "Miai, level 3"]}
    data = dump_go(state, {"DT": "2026-01-01,02"}, players=players)
    assert b"RE[W+6.5]" in data and b"PW[Bob, Miai, level 3]" in data and b"MU[0:Ann][0:Cy]" in data
    path = tmp_path / "team.sgf"
    path.write_bytes(data)
    assert gnugo_sees(gnugo, path, 9) == miai_sees(state)
    assert load_go(data).players == players
