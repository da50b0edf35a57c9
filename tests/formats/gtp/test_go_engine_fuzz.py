"""Random command lines never crash the Go GTP engine: every line gets a well-formed '=' or '?' answer,
and no answer is an internal error (a handler that failed in a way nobody planned for)."""

from __future__ import annotations

import contextlib
import random
import tempfile

from hypothesis import given, settings
from hypothesis import strategies as st

from miai.engines.simple import SimplePlayer
from miai.formats.gtp import parse_response
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

lines = st.lists(
    st.tuples(
        st.one_of(st.none(), st.integers(0, 999)),
        st.sampled_from(NAMES),
        st.lists(st.one_of(st.sampled_from(TOKENS), st.text(max_size=6)), max_size=4),
    ),
    min_size=1,
    max_size=40,
)


@settings(max_examples=300, deadline=None)
@given(seed=st.integers(0, 1000), script=lines)
def test_random_command_lines_never_crash(seed: int, script: list[tuple[int | None, str, list[str]]]) -> None:
    engine = build_go_engine("chinese", SimplePlayer(random.Random(seed)))
    with tempfile.TemporaryDirectory() as folder, contextlib.chdir(folder):  # printsgf FILE writes here
        for command_id, name, args in script:
            line = " ".join([*([str(command_id)] if command_id is not None else []), name, *args])
            answer = engine.handle_line(line)
            if answer is None:
                continue  # an empty or comment-only line
            assert answer.endswith("\n\n"), (line, answer)
            response = parse_response(answer)
            assert "internal error" not in response.text, (line, response.text)


@settings(max_examples=200, deadline=None)
@given(st.lists(st.text(max_size=30), min_size=1, max_size=20))
def test_arbitrary_text_never_crashes(script: list[str]) -> None:
    engine = build_go_engine()
    with tempfile.TemporaryDirectory() as folder, contextlib.chdir(folder):
        for line in script:
            answer = engine.handle_line(line)
            if answer is not None:
                assert "internal error" not in parse_response(answer).text, line
