"""SGF records of Amazons (GM[18]), Hex (GM[11]) and Tanbo (GM[1000]): exact output, lossless round trips,
records written by other programs, and clear errors for broken ones."""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from miai.core import amazons, hex, tanbo
from miai.core.amazons import parse_square
from miai.core.twoplayer import RESIGN, TIMEOUT, EndReason, Place
from miai.formats.sgf import SgfError, parse_sgf
from miai.formats.sgf.games import dump_game, load_game, read_game

AnyState = Any  # an Amazons, Hex or Tanbo state

STARTS: dict[str, list[Callable[[], AnyState]]] = {
    "amazons": [amazons.new_game],
    "hex": [
        lambda: hex.new_game(5),
        lambda: hex.new_game(7, "centre_row_ban"),
        lambda: hex.new_game(6, "none"),
    ],
    "tanbo": [lambda: tanbo.new_game(9), lambda: tanbo.new_game(13, cap=30), tanbo.new_game],
}


def essence(state: AnyState) -> tuple[Any, ...]:
    """Everything a record must keep: the start, the rules, every move, the position and the result."""
    start = state.start()
    rules = getattr(start, "opening", None), getattr(start, "cap", None)
    return (type(state), state.size, start.cells, start.to_move, rules, state.moves(), state.cells,
            state.to_move, state.plies, state.outcome)  # fmt: skip


def random_game(start: AnyState, rng: random.Random, plies: int) -> AnyState:
    state = start
    for _ in range(plies):
        if state.is_over:
            break
        state = state.play(rng.choice(state.legal_moves()))
    return state


# --- exact records


def test_an_amazons_record_uses_gm18_three_point_moves_and_explicit_setup() -> None:
    state = amazons.new_game().play(amazons.parse_move("a4-d4/d7")).play(amazons.parse_move("d10-d8/d10"))
    text = dump_game("amazons", state, {"PW": "Ann", "PB": "Bob"}).decode()
    assert text == (
        "(;FF[4]CA[UTF-8]GM[18]SZ[10]AW[dj][gj][ag][jg]AB[ad][jd][da][ga]PL[W]PW[Ann]\nPB[Bob]\n"
        ";W[agdgdd];B[dadcda])\n"
    )
    assert essence(load_game(text.encode())) == essence(state)


def test_a_hex_record_names_cells_like_hexwiki_and_writes_the_swap_as_swap_pieces() -> None:
    state = hex.new_game(5).play(Place(hex.parse_cell("c2", 5))).play(hex.SWAP).play(Place(0))
    text = dump_game("hex", state).decode()
    assert text == "(;FF[4]CA[UTF-8]GM[11]SZ[5]RU[swap]PL[B]\n;B[c2];W[swap-pieces];B[a1])\n"
    loaded = load_game(text.encode())
    assert essence(loaded) == essence(state) and isinstance(loaded, hex.HexState)
    assert loaded.stones(hex.SECOND) == [hex.parse_cell("b3", 5)]


def test_a_tanbo_record_uses_go_points_and_the_miai_game_number() -> None:
    state = tanbo.new_game(9).play(tanbo.parse_move("H3", 9)).play(RESIGN)
    text = dump_game("tanbo", state).decode()
    assert text == "(;FF[4]CA[UTF-8]GM[1000]SZ[9]AB[hh][bb]AW[bh][hb]PL[B]RE[B+R]\n;B[hg])\n"
    loaded = load_game(text.encode())
    assert essence(loaded) == essence(state)
    assert (loaded.winner, loaded.reason) == (tanbo.BLACK, EndReason.RESIGN)


@pytest.mark.parametrize(
    ("state", "result"),
    [
        (hex.new_game(5, setup={0: 0, 5: 0, 10: 0, 15: 0}).play(Place(20)), "B+"),
        (tanbo.new_game(9, cap=2).play(tanbo.parse_move("H3", 9)).play(tanbo.parse_move("B3", 9)), "0"),
        (amazons.new_game().leave(amazons.BLACK, TIMEOUT), "W+T"),
        (amazons.new_game().play(RESIGN), "B+R"),
        (hex.new_game(5).leave(hex.FIRST, TIMEOUT), "W+T"),
    ],
)
def test_results_are_written_as_re(state: AnyState, result: str) -> None:
    kind = {amazons.AmazonsState: "amazons", hex.HexState: "hex", tanbo.TanboState: "tanbo"}[type(state)]
    data = dump_game(kind, state)
    assert parse_sgf(data)[0].root.get("RE") == result
    assert essence(load_game(data)) == essence(state)


def test_a_game_never_played_out_may_say_re_void() -> None:
    data = dump_game("hex", hex.new_game(5), {"RE": "Void", "DT": "2025-01-02"})
    assert parse_sgf(data)[0].root.get("RE") == "Void"
    record = read_game(data)
    assert record.info == {"RE": ["Void"], "DT": ["2025-01-02"]} and record.state.outcome is None
    assert dump_game(record.kind, record.state, record.info) == data
    with pytest.raises(ValueError, match="info may not set RE"):
        dump_game("hex", hex.new_game(5).play(RESIGN), {"RE": "Void"})  # the state has its own result


def test_the_tanbo_cap_is_kept_only_when_it_is_not_the_default() -> None:
    assert b"ML[" not in dump_game("tanbo", tanbo.new_game(9))
    data = dump_game("tanbo", tanbo.new_game(9, cap=77))
    loaded = load_game(data)
    assert parse_sgf(data)[0].root.get("ML") == "77"
    assert isinstance(loaded, tanbo.TanboState) and loaded.cap == 77


# --- lossless round trips


@pytest.mark.parametrize("kind", list(STARTS))
def test_seeded_games_round_trip_losslessly_at_every_stage(kind: str) -> None:
    rng = random.Random(kind)
    for make in STARTS[kind]:
        for plies in (0, 1, 7, 40, 5000):
            state = random_game(make(), rng, plies)
            if plies == 7:
                state = state.leave(rng.randrange(2), rng.choice([RESIGN, TIMEOUT]))
            data = dump_game(kind, state, {"PB": "Ann", "C": "a ] tricky \\ comment"})
            record = read_game(data)
            assert record.kind == kind and essence(record.state) == essence(state)
            assert record.info == {"PB": ["Ann"], "C": ["a ] tricky \\ comment"]}
            assert dump_game(kind, record.state, record.info) == data


@st.composite
def games(draw: st.DrawFn) -> tuple[str, AnyState]:
    kind = draw(st.sampled_from(sorted(STARTS)))
    state = draw(st.sampled_from(STARTS[kind]))()
    for pick in draw(st.lists(st.integers(0, 10_000), max_size=80)):
        if state.is_over:
            break
        moves = state.legal_moves()
        state = state.play(moves[pick % len(moves)])
    if not state.is_over and draw(st.booleans()):
        state = state.leave(draw(st.integers(0, 1)), draw(st.sampled_from([RESIGN, TIMEOUT])))
    return kind, state


@settings(max_examples=60, deadline=None)
@given(games())
def test_records_round_trip_losslessly(case: tuple[str, AnyState]) -> None:
    kind, state = case
    assert essence(load_game(dump_game(kind, state))) == essence(state)


# --- records from other programs


def test_a_gm18_record_without_setup_uses_the_sgf_default_start() -> None:
    """The GM[18] page's example: Black's queens at the bottom (its default), Black moving first."""
    state = load_game(b"(;GM[18];B[djddgd];W[addgad];B[gjehea])")
    assert isinstance(state, amazons.AmazonsState)
    start = state.start()
    assert start.queens(amazons.BLACK) == sorted(parse_square(s) for s in ("d1", "g1", "a4", "j4"))
    assert start.to_move == amazons.BLACK
    assert [amazons.format_move(m) for _, m in state.moves()] == ["d1-d7/g7", "a7-d4/a7", "g1-e3/e10"]


def test_a_playhex_style_record_reads_with_its_info() -> None:
    data = (
        b"(;FF[4]GM[11]AP[PlayHex:0.0.0]PL[B]SZ[4]DT[2023-12-08]PB[Player A]PW[Player B];B[a1];W[b1];B[C3])"
    )
    record = read_game(data)
    assert record.kind == "hex" and isinstance(record.state, hex.HexState)
    assert record.state.size == 4 and record.state.opening is hex.Opening.SWAP
    assert [hex.format_move(m, 4) for _, m in record.state.moves()] == ["a1", "b1", "c3"]
    assert record.info == {
        "AP": ["PlayHex:0.0.0"],
        "DT": ["2023-12-08"],
        "PB": ["Player A"],
        "PW": ["Player B"],
    }


def test_hex_resign_and_forfeit_moves_end_the_game() -> None:
    resigned = load_game(b"(;GM[11]SZ[5];B[c3];W[resign])")
    assert (resigned.winner, resigned.reason) == (hex.FIRST, EndReason.RESIGN)
    forfeited = load_game(b"(;GM[11]SZ[5]RE[B+T];B[c3];W[forfeit])")
    assert (forfeited.winner, forfeited.reason) == (hex.FIRST, EndReason.TIMEOUT)


# --- broken records


@pytest.mark.parametrize(
    ("data", "words"),
    [
        (b"(;GM[1]SZ[9];B[ee])", "Go record \\(GM\\[1\\]\\)"),
        (b"(;SZ[9];B[ee])", "Go record"),
        (b"(;GM[2]SZ[8])", "GM\\[2\\] is not a game this reader knows"),
        (b"(;GM[11]SZ[5:7])", "not a square board size"),
        (b"(;GM[11]SZ[x])", "not a square board size"),
        (b"(;GM[11]SZ[\xc2\xb2])", "not a square board size"),  # a digit to str.isdigit, not to int()
        (b"(;GM[18]SZ[" + b"9" * 5000 + b"])", "not a square board size"),  # too long for int()
        (b"(;GM[1000]SZ[9]ML[" + b"9" * 5000 + b"])", "is not a ply count"),
        (b"(;GM[11]SZ[30])", "cannot be played: Hex boards"),
        (b"(;GM[11]SZ[5];B[a1]W[b1])", "node 1 holds both a B and a W move"),
        (b"(;GM[11]SZ[5];B[a1];B[b1])", "node 2: W is to move, but the record has B\\[b1\\]"),
        (b"(;GM[11]SZ[5];B[a1];W[a1])", "node 2 \\(W\\[a1\\]\\): a1 is already taken"),
        (b"(;GM[11]SZ[5];B[a9])", "node 1 \\(B\\[a9\\]\\): a9 is off the 5x5 board"),
        (b"(;GM[11]SZ[5];B[a1];W[swap-sides])", "swap-sides"),
        (b"(;GM[11]SZ[5]RU[none];B[a1];W[swap-pieces])", "opening rule is none"),
        (b"(;GM[11]SZ[5]AB[z9])", "AB\\[z9\\]"),
        (b"(;GM[11]SZ[5]PL[X])", "PL\\[X\\] names neither B nor W"),
        (b"(;GM[11]SZ[5];B[a1];W[resign];B[b1])", "node 3 .* comes after the end of the game"),
        (b"(;GM[11]SZ[5]RE[B+R];B[c3];W[resign];)", None),
        (b"(;GM[11]SZ[5]RE[W+R];B[c3];W[resign])", "RE\\[W\\+R\\] does not match the moves"),
        (b"(;GM[11]SZ[5];B[a1];AB[b2]W[c3])", "node 2 changes the position with setup properties"),
        (b"(;GM[18]PL[W]AW[ag]AB[ad];W[ag])", "three points"),
        (b"(;GM[18];B[djdadb])", "node 1 \\(B\\[djdadb\\]\\): the queen cannot land on d10: it is occupied"),
        (b"(;GM[18];W[djddgd])", "does not hold one of White's queens"),
        (b"(;GM[18]SZ[8];W[aaabac])", "needs its start position"),
        (b"(;GM[1000]SZ[9]ML[soon])", "ML\\[soon\\] is not a ply count"),
        (b"(;GM[1000]SZ[3]AB[aa]AW[ab][ba])", "bounded root at A3"),
        (b"(;GM[1000]SZ[9];B[ee])", "E5 touches 0 Black stones"),
        (b"(;GM[1000]SZ[11])", "start layouts for sizes 19, 9, 13"),
        (b"(;GM[1000]SZ[9];B[zz])", "invalid point|off the"),
        (b"no tree at all", "no SGF game tree found"),
    ],
)
def test_broken_records_get_clear_errors(data: bytes, words: str | None) -> None:
    if words is None:
        load_game(data)  # an empty node after the end is harmless
        return
    with pytest.raises(SgfError, match=words):
        load_game(data)


def test_dump_refuses_what_it_cannot_write() -> None:
    state = hex.new_game(5)
    with pytest.raises(ValueError, match="Go bridge"):
        dump_game("go", state)
    with pytest.raises(ValueError, match="no SGF record format for game 'chess'"):
        dump_game("chess", state)
    with pytest.raises(ValueError, match="not a tanbo game"):
        dump_game("tanbo", state)
    with pytest.raises(ValueError, match="info may not set RE"):
        dump_game("hex", state, {"RE": "B+"})
    with pytest.raises(SgfError, match="invalid property identifier"):
        dump_game("hex", state, {"pb": "lower case"})


def test_the_standard_tanbo_start_is_written_as_the_documented_setup() -> None:
    root = parse_sgf(dump_game("tanbo", tanbo.new_game()))[0].root
    assert root.get_all("AB") == ["gs", "ss", "am", "mm", "gg", "sg", "aa", "ma"]
    assert root.get_all("AW") == ["as", "ms", "gm", "sm", "ag", "mg", "ga", "sa"]
    assert (root.get("GM"), root.get("SZ"), root.get("PL"), root.has("ML")) == ("1000", "19", "B", False)
