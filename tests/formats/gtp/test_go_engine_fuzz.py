"""Random command lines against the Go GTP engine: every line gets a well-formed answer with the command's
id, no answer is an internal error (a handler that failed in a way nobody planned for), and the answers
agree with the board the engine shows: a refused or read-only command changes no stone, a played or
generated move puts a stone of that colour on a point that was empty, a point said to be legal is empty."""

from __future__ import annotations

import contextlib
import random
import tempfile

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from miai.engines.simple import SimplePlayer
from miai.formats.gtp import Command, GtpEngine, GtpError, parse_colour, parse_command, parse_response
from miai.formats.gtp.go_engine import build_go_engine

NAMES = [
    "protocol_version", "name", "version", "known_command", "list_commands", "boardsize", "clear_board",
    "komi", "play", "genmove", "reg_genmove", "kgs-genmove_cleanup", "undo", "showboard", "final_score",
    "final_status_list", "loadsgf", "printsgf", "fixed_handicap", "place_free_handicap", "set_free_handicap",
    "is_legal", "all_legal", "captures", "list_stones", "time_settings", "kgs-time_settings", "time_left",
    "kgs-rules", "gogui-analyze_commands", "nonsense", "", "#", "quit",
]
TOKENS = [
    "b", "w", "black", "WHITE", "x", "pass", "resign", "a1", "A1", "t19", "z25", "i5", "e5", "c3", "d4",
    "0", "1", "2", "3", "9", "19", "25", "26", "-1", "7.5", "1e309", "nan", "inf", "abc", "alive", "dead",
    "seki", "none", "absolute", "byoyomi", "canadian", "japanese", "chinese", "aga", "new_zealand",
    "missing.sgf", "/", "\u00e9", "\x00", "\t", "99999999999999999999", "#comment",
]

# Well-formed commands on the points every board from 5x5 up has, so that many plays succeed.
COLOURS = st.sampled_from(["b", "w", "black", "WHITE"])
VERTICES = st.sampled_from([*(f"{c}{r}" for c in "abcdeABCDE" for r in range(1, 6)), "pass"])
well_formed = st.one_of(
    st.tuples(st.sampled_from(["play", "play", "is_legal"]), COLOURS, VERTICES).map(
        lambda t: (None, t[0], [t[1], t[2]])
    ),
    st.tuples(st.sampled_from(["genmove", "reg_genmove", "all_legal"]), COLOURS).map(
        lambda t: (None, t[0], [t[1]])
    ),
    st.sampled_from([(None, "undo", []), (None, "clear_board", [])]),
    st.sampled_from(["5", "7", "9", "1", "26"]).map(lambda size: (None, "boardsize", [size])),
)
lines = st.lists(
    st.tuples(
        st.one_of(st.none(), st.integers(0, 999)),
        st.sampled_from(NAMES),
        st.lists(st.one_of(st.sampled_from(TOKENS), st.text(max_size=6)), max_size=4),
    )
    | well_formed,
    min_size=1,
    max_size=40,
)

# Commands that never change the stones on the board, whatever they answer.
READ_ONLY = {
    "protocol_version", "name", "version", "known_command", "list_commands", "showboard", "final_score",
    "final_status_list", "printsgf", "is_legal", "all_legal", "captures", "list_stones", "reg_genmove",
    "time_settings", "kgs-time_settings", "time_left", "komi", "kgs-rules", "gogui-analyze_commands",
    "nonsense", "quit",
}
Board = tuple[frozenset[str], frozenset[str]]


def board(engine: GtpEngine) -> Board:
    """Black's and White's stones as the engine lists them."""
    found = []
    for colour in ("black", "white"):
        answer = engine.handle_line(f"list_stones {colour}")
        assert answer is not None and answer.startswith("= "), answer
        found.append(frozenset(parse_response(answer).text.split()))
    black, white = found
    assert not black & white, f"points with two colours: {black & white}"
    return black, white


def colour_index(text: str) -> int:
    return "bw".index(parse_colour(text))


def check_answer(line: str, answer: str | None) -> tuple[Command, str] | None:
    """The command and its answer ("=" or "?", then the text); None for a line blank but for comments."""
    command = parse_command(line)
    if command is None:
        assert answer is None, (line, answer)
        return None
    assert answer is not None and answer.endswith("\n\n"), (line, answer)
    assert "\n\n" not in answer[:-2], (line, answer)  # one response, not two
    response = parse_response(answer)
    assert response.id == command.id, (line, answer)
    assert "internal error" not in response.text, (line, response.text)
    return command, ("=" if response.ok else "?") + response.text


def check_effect(command: Command, answer: str, before: Board, after: Board) -> None:
    """What the answer to one command says about the board, checked against the board before and after."""
    name, args = command.name, command.args
    ok, text = answer[0] == "=", answer[1:]
    occupied = before[0] | before[1]
    if not ok or name in READ_ONLY:
        assert after == before, f"{name} {args} answered {answer!r} yet changed the stones"
    if not ok:
        return
    if name in {"play", "genmove", "kgs-genmove_cleanup"}:
        colour = colour_index(args[0])
        point = (args[1] if name == "play" else text).upper()
        if point in {"PASS", "RESIGN"}:
            assert after == before, f"{name} {args} -> {text!r} changed the stones"
        else:
            assert point not in occupied, f"{name} {args} -> {text!r}: the point was taken"
            # Unless it was a multi-stone suicide (kgs-rules new_zealand allows it): its chain is gone then.
            placed = point in after[colour] or after[colour] < before[colour]
            assert placed, f"{name} {args} -> {text!r}: no stone of that colour there"
            assert after[1 - colour] <= before[1 - colour], f"{name} {args}: the other side gained stones"
    elif name == "is_legal" and text == "1" and args[1].lower() != "pass":
        assert args[1].upper() not in occupied, f"is_legal {args} on a stone"
    elif name == "all_legal":
        assert not set(text.split()) & occupied, f"all_legal {args} lists stones"


@settings(max_examples=300, deadline=None)
@given(seed=st.integers(0, 1000), script=lines)
def test_random_command_lines_get_answers_that_agree_with_the_board(
    seed: int, script: list[tuple[int | None, str, list[str]]]
) -> None:
    engine = build_go_engine("chinese", SimplePlayer(random.Random(seed)))
    with tempfile.TemporaryDirectory() as folder, contextlib.chdir(folder):  # printsgf FILE writes here
        before = board(engine)
        for command_id, name, args in script:
            line = " ".join([*([str(command_id)] if command_id is not None else []), name, *args])
            answered = check_answer(line, engine.handle_line(line))
            after = board(engine)
            if answered is not None:
                check_effect(*answered, before, after)
            before = after


@settings(max_examples=200, deadline=None)
@given(st.lists(st.text(max_size=30), min_size=1, max_size=20))
def test_arbitrary_text_gets_one_answer_per_command(script: list[str]) -> None:
    engine = build_go_engine()
    with tempfile.TemporaryDirectory() as folder, contextlib.chdir(folder):
        before = board(engine)
        for line in script:
            answered = check_answer(line, engine.handle_line(line))
            after = board(engine)
            if answered is not None:
                check_effect(*answered, before, after)
            before = after


def test_the_checks_see_a_stone_that_a_refused_command_placed() -> None:
    """The oracle itself: a handler that changes the board and then refuses is caught."""
    engine = build_go_engine()

    def sneaky(args: list[str]) -> str:
        engine.handle_line("play b a1")
        raise GtpError("refused")

    engine.register("sneaky", sneaky)
    before = board(engine)
    answered = check_answer("sneaky", engine.handle_line("sneaky"))
    assert answered == (Command(None, "sneaky"), "?refused")
    with pytest.raises(AssertionError, match="changed the stones"):
        check_effect(*answered, before, board(engine))
