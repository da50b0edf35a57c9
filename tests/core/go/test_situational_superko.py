"""Situational superko counts the situations that passes create (SPEC G3, issue 20).

A situation is the stones on the board plus the colour to move next. Every play adds one to the superko
history and, under situational superko, so does every pass (the same stones, the other colour to move). A
play may not recreate an earlier situation, whether a play or a pass created it (AGA, NZ, KataGo's
SITUATIONAL, GNU Go's --situational-superko). Positional superko refuses every repeated board, so it refuses
whatever situational superko refuses; the last line shows that the converse does not hold. GNU Go, under its
matching ko option, must judge the final play of each line the same way.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import pytest

from miai.core.errors import IllegalReason
from miai.core.go import PASS, GoState, KoRule, Place, Rules, new_game
from miai.core.go.vertex import parse_move, parse_point
from miai.formats.ascii import parse_diagram
from miai.formats.gtp import GtpController, find_gnugo, gnugo_channel
from tests.conftest import need
from tests.core.go.helpers import TRIPLE_KO

SIMPLE, POSITIONAL, SITUATIONAL = KoRule.SIMPLE, KoRule.POSITIONAL, KoRule.SITUATIONAL
KO, SUPERKO = IllegalReason.KO, IllegalReason.SUPERKO


@dataclass(frozen=True)
class Line:
    """Moves from Black's turn, alternating colours, then Black's `last` play and its verdict per ko rule."""

    name: str
    size: int
    moves: tuple[str, ...]
    last: str
    verdicts: dict[KoRule, IllegalReason | None]
    setup: str | None = None  # a diagram of the stones at the start (none: the empty board)

    def state(self, ko: KoRule) -> GoState:
        stones = parse_diagram(self.setup).stones if self.setup else None
        state = new_game(self.size, Rules(ko=ko, allowed_sizes=(self.size,)), setup=stones, to_move=0)
        for text in self.moves:
            state = state.play(parse_move(text, self.size))
        assert state.to_move == 0
        return state


LINES = [
    # After White B2 it is Black's turn. Black passes (the same stones, White to move), White takes the ko
    # at C1, and Black's retake at B1 recreates that situation: refused by every ko rule. Before the fix
    # the core allowed it under situational superko, since no play had made that situation.
    Line("retake after a pass", 3, ("B1", "A1", "C2", "B2", "pass", "C1"), "B1",
         {SIMPLE: KO, POSITIONAL: SUPERKO, SITUATIONAL: SUPERKO}),
    # SPEC §1.11.5's triple ko, but Black passes first: the six plays of the cycle bring the start back with
    # White to move, the situation of the pass. The basic ko rule allows it; before the fix the core did too
    # under situational superko.
    Line("triple ko after a pass", 9, ("pass", "B8", "C3", "G8", "C8", "B3"), "H8",
         {SIMPLE: None, POSITIONAL: SUPERKO, SITUATIONAL: SUPERKO}, TRIPLE_KO),
    # Black's B1 takes C1 and brings back the stones after White's B2, which had Black to move; now White
    # is to move, a new situation: only positional superko refuses it.
    Line("same stones, other colour to move", 3, ("B1", "A2", "C2", "B2", "A1", "C1"), "B1",
         {SIMPLE: None, POSITIONAL: SUPERKO, SITUATIONAL: None}),
]  # fmt: skip
IDS = [line.name for line in LINES]


@pytest.mark.parametrize("ko", list(KoRule))
@pytest.mark.parametrize("line", LINES, ids=IDS)
def test_the_last_play_of_each_line(line: Line, ko: KoRule) -> None:
    state = line.state(ko)
    last = Place(parse_point(line.last, line.size))
    analysis = state.analyze(last)
    assert analysis.reason is line.verdicts[ko], f"{line.name} under {ko} ko: {analysis}"
    assert (last in state.legal_moves()) is (analysis.reason is None)
    if analysis.reason is None:  # the play is allowed although it repeats an earlier board
        assert state.play(last).position() in [earlier.position() for earlier in state.lineage()]


def test_a_pass_that_repeats_a_situation_is_legal() -> None:
    """After the last line's B1, White's pass brings back the stones after White's B2 with Black to move, a
    situation that already occurred: a pass is never refused, and the game goes on."""
    line = LINES[-1]
    state = line.state(SITUATIONAL).play(Place(parse_point(line.last, line.size)))
    state = state.play(PASS)
    assert not state.is_over and state.to_move == 0


GNUGO_KO = {SIMPLE: "--simple-ko", POSITIONAL: "--positional-superko", SITUATIONAL: "--situational-superko"}


def setup_sgf(line: Line, path: Path) -> Path:
    diagram = parse_diagram(line.setup or "")
    letters = "abcdefghijklmnopqrstuvwxy"

    def sgf_point(p: int) -> str:
        row, col = divmod(p, line.size)
        return letters[col] + letters[line.size - 1 - row]

    stones = {c: "".join(f"[{sgf_point(p)}]" for p, s in diagram.stones.items() if s == c) for c in (0, 1)}
    path.write_text(f"(;GM[1]FF[4]SZ[{line.size}]PL[B]AB{stones[0]}AW{stones[1]})\n")
    return path


@pytest.mark.gnugo
@pytest.mark.parametrize("ko", list(KoRule))
def test_gnugo_judges_the_last_plays_alike(ko: KoRule, tmp_path: Path) -> None:
    need(find_gnugo() is not None, "GNU Go not installed")
    with GtpController(gnugo_channel(level=0, extra_args=[GNUGO_KO[ko]], timeout=60.0)) as gnugo:
        for line in LINES:
            gnugo.boardsize(line.size)
            gnugo.clear_board()
            if line.setup:
                gnugo.loadsgf(setup_sgf(line, tmp_path / "setup.sgf"))
            for index, text in enumerate(line.moves):
                gnugo.command("play", "black" if index % 2 == 0 else "white", text)
            legal = gnugo.command("is_legal", "black", line.last).strip() == "1"
            assert legal is (line.verdicts[ko] is None), f"GNU Go {GNUGO_KO[ko]} on the line {line.name!r}"
