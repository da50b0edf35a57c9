"""loadsgf and printsgf: GNU Go's meanings, error answers, and the printsgf -> loadsgf round trip."""

from __future__ import annotations

import random
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from miai.engines.simple import SimplePlayer
from miai.formats.gtp import GtpEngine
from miai.formats.gtp.go_engine import build_go_engine
from miai.formats.sgf.go import load_go
from tests.formats.gtp.go_helpers import fails, ok, stones

GAME = b"(;GM[1]FF[4]SZ[9]KM[5.5];B[cc];W[gg];B[dd];W[cg];B[gc])"


def write(tmp_path: Path, data: bytes, name: str = "game.sgf") -> Path:
    path = tmp_path / name
    path.write_bytes(data)
    return path


def test_loadsgf_takes_size_komi_and_moves(tmp_path: Path) -> None:
    engine = build_go_engine()
    path = write(tmp_path, GAME)
    assert ok(engine, f"loadsgf {path}") == "white"
    assert stones(engine, "black") == {"C7", "D6", "G7"}  # SGF rows count from the top
    assert stones(engine, "white") == {"G3", "C3"}
    assert len(ok(engine, "all_legal b").split()) == 81 - 5  # a 9x9 board now
    ok(engine, "clear_board")
    ok(engine, "play b e5")
    assert ok(engine, "final_score") == "B+75.5"  # KM[5.5] became the komi


def test_loadsgf_stops_before_a_move_number_or_vertex(tmp_path: Path) -> None:
    engine = build_go_engine()
    path = write(tmp_path, GAME)
    assert ok(engine, f"loadsgf {path} 3") == "black"  # before move 3: two moves played
    assert stones(engine, "black") == {"C7"}
    assert ok(engine, f"loadsgf {path} 1") == "black"
    assert stones(engine, "black") == set()
    assert ok(engine, f"loadsgf {path} c3") == "white"  # before the first move at C3 (move 4)
    assert stones(engine, "white") == {"G3"}
    assert ok(engine, f"loadsgf {path} 99") == "white"  # past the end: the whole game


def test_loadsgf_keeps_the_moves_for_undo(tmp_path: Path) -> None:
    engine = build_go_engine()
    ok(engine, f"loadsgf {write(tmp_path, GAME)}")
    for _ in range(5):
        ok(engine, "undo")
    assert stones(engine, "black") == set()
    assert fails(engine, "undo") == "cannot undo"


def test_loadsgf_keeps_the_engines_rules_preset(tmp_path: Path) -> None:
    engine = build_go_engine("japanese")
    ok(engine, f"loadsgf {write(tmp_path, b'(;SZ[5]KM[0]RU[Chinese];B[cc])')}")
    assert ok(engine, "final_score") == "B+24.0"  # territory scoring: 24 empty points, the stone is no point


def test_loadsgf_with_setup_and_player_to_move(tmp_path: Path) -> None:
    engine = build_go_engine()
    path = write(tmp_path, b"(;GM[1]SZ[5]AB[aa][bb]AW[ee]PL[W])")
    assert ok(engine, f"loadsgf {path}") == "white"
    assert stones(engine, "black") == {"A5", "B4"}
    assert stones(engine, "white") == {"E1"}


def test_loadsgf_errors(tmp_path: Path) -> None:
    engine = build_go_engine()
    assert fails(engine, f"loadsgf {tmp_path / 'missing.sgf'}").startswith("cannot open or parse")
    assert fails(engine, f"loadsgf {tmp_path}").startswith("cannot open or parse")
    garbage = write(tmp_path, b"this is not SGF", "garbage.sgf")
    assert fails(engine, f"loadsgf {garbage}").startswith("cannot open or parse")
    huge = write(tmp_path, b"(;SZ[30];B[aa])", "huge.sgf")
    assert fails(engine, f"loadsgf {huge}").startswith("cannot open or parse")
    game = write(tmp_path, GAME)
    assert "numbered from 1" in fails(engine, f"loadsgf {game} 0")
    assert fails(engine, f"loadsgf {game} xyz")
    assert fails(engine, "loadsgf").startswith("wrong number of arguments")
    # The failed loads left the previous game alone.
    ok(engine, "play b a1")
    assert stones(engine, "black") == {"A1"}


def test_printsgf_answers_the_record(tmp_path: Path) -> None:
    engine = build_go_engine("japanese")
    ok(engine, "boardsize 9")
    ok(engine, "komi 6.5")
    for line in ("play b c3", "play w g7", "play b pass"):
        ok(engine, line)
    text = ok(engine, "printsgf")
    record = load_go(text.encode())
    assert record.state.size == 9
    assert record.rules_key == "japanese"
    assert record.state.rules.komi_of(1) == 6.5
    assert [str(move) for _, move in record.state.moves()] == ["Place(point=20)", "Place(point=60)", "Pass()"]


def test_printsgf_writes_a_file(tmp_path: Path) -> None:
    engine = build_go_engine()
    ok(engine, "boardsize 9")
    ok(engine, "play b c3")
    path = tmp_path / "out.sgf"
    assert ok(engine, f"printsgf {path}") == ""
    assert load_go(path.read_bytes()).state.position() == {20: 0}
    assert fails(engine, f"printsgf {tmp_path / 'no-such-dir' / 'x.sgf'}").startswith("cannot write")


def play_random_game(engine: GtpEngine, size: int, moves: int, seed: int) -> None:
    ok(engine, f"boardsize {size}")
    rng = random.Random(seed)
    for number in range(moves):
        colour = "b" if number % 2 == 0 else "w"
        if rng.random() < 0.5:
            ok(engine, f"genmove {colour}")
        else:  # any legal point, captures and all, in the controller's own order
            legal = ok(engine, f"all_legal {colour}").split()
            ok(engine, f"play {colour} {rng.choice(legal) if legal else 'pass'}")


def assert_same_game(first: GtpEngine, second: GtpEngine) -> None:
    for colour in ("black", "white"):
        assert stones(first, colour) == stones(second, colour)
        assert ok(first, f"captures {colour}") == ok(second, f"captures {colour}")
        assert ok(first, f"all_legal {colour}") == ok(second, f"all_legal {colour}")
    assert ok(first, "final_score") == ok(second, "final_score")


@settings(max_examples=25, deadline=None)
@given(
    seed=st.integers(0, 10**6),
    size=st.sampled_from([5, 7, 9, 13]),
    moves=st.integers(0, 120),
    preset=st.sampled_from(["chinese", "japanese", "aga", "dipgo", "nz"]),
)
def test_printsgf_then_loadsgf_gives_the_same_position(seed: int, size: int, moves: int, preset: str) -> None:
    import tempfile

    first = build_go_engine(preset, SimplePlayer(random.Random(seed)))
    play_random_game(first, size, moves, seed)
    second = build_go_engine(preset)
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "round-trip.sgf"
        ok(first, f"printsgf {path}")
        to_move = ok(second, f"loadsgf {path}")
    assert to_move == ("black" if moves % 2 == 0 else "white")
    assert_same_game(first, second)


@pytest.mark.parametrize("handicap", ["fixed_handicap 4", "place_free_handicap 5", "set_free_handicap a1 c3"])
def test_round_trip_with_handicap(tmp_path: Path, handicap: str) -> None:
    first = build_go_engine("aga", SimplePlayer(random.Random(1)))
    ok(first, "boardsize 9")
    ok(first, "komi 0.5")
    ok(first, handicap)
    for number in range(30):
        ok(first, f"genmove {'wb'[number % 2]}")
    path = tmp_path / "handicap.sgf"
    ok(first, f"printsgf {path}")
    second = build_go_engine("aga")
    ok(second, f"loadsgf {path}")
    assert_same_game(first, second)  # final_score includes AGA's handicap compensation
