"""The Go GTP engine: setup, moves, undo, questions and board display, including the error paths."""

from __future__ import annotations

import pytest

from miai import __version__
from miai.core.errors import InvalidRules
from miai.core.go import PASS, RESIGN, Place
from miai.formats.gtp import GtpEngine
from miai.formats.gtp.go_engine import build_go_engine
from tests.formats.gtp.go_helpers import ScriptedGenerator, ask, fails, ok, stones

REQUIRED = [
    "protocol_version", "name", "version", "known_command", "list_commands", "quit", "boardsize",
    "clear_board", "komi", "play", "genmove", "undo", "showboard", "final_score", "final_status_list",
    "loadsgf", "printsgf", "fixed_handicap", "place_free_handicap", "set_free_handicap", "is_legal",
    "all_legal", "captures", "list_stones", "time_settings", "time_left", "kgs-rules", "reg_genmove",
    "kgs-genmove_cleanup", "kgs-time_settings", "gogui-analyze_commands",
]


def engine_9x9(preset: str = "chinese") -> GtpEngine:
    engine = build_go_engine(preset)
    ok(engine, "boardsize 9")
    return engine


def test_identity_and_command_list() -> None:
    engine = build_go_engine()
    assert ok(engine, "protocol_version") == "2"
    assert ok(engine, "name") == "Miai"
    assert ok(engine, "version") == __version__
    listed = ok(engine, "list_commands").split("\n")
    assert set(REQUIRED) <= set(listed)
    for name in REQUIRED:
        assert ok(engine, f"known_command {name}") == "true"
    assert ok(engine, "known_command go_param_rules") == "false"
    assert fails(engine, "frobnicate") == "unknown command"


def test_unknown_preset_is_refused() -> None:
    with pytest.raises(InvalidRules, match="unknown rules preset"):
        build_go_engine("no-such-rules")


def test_boardsize_range_and_errors() -> None:
    engine = build_go_engine()
    for size in (2, 7, 19, 25):
        ok(engine, f"boardsize {size}")
        assert ok(engine, "all_legal b").count(" ") == size * size - 1
    assert fails(engine, "boardsize 1") == "unacceptable size"
    assert fails(engine, "boardsize 26") == "unacceptable size"
    assert fails(engine, "boardsize nine") == "boardsize not an integer"
    assert "wrong number of arguments" in fails(engine, "boardsize")


def test_boardsize_outside_the_preset_sizes_still_plays() -> None:
    engine = build_go_engine("dgo")  # Dgo offers only 7, 9, 13 and 19
    ok(engine, "boardsize 4")
    ok(engine, "play b b2")
    assert stones(engine, "black") == {"B2"}


def test_boardsize_and_clear_board_empty_the_board() -> None:
    engine = engine_9x9()
    ok(engine, "play b e5")
    ok(engine, "clear_board")
    assert stones(engine, "black") == set()
    ok(engine, "play w c3")
    ok(engine, "boardsize 9")
    assert stones(engine, "white") == set()
    assert fails(engine, "undo") == "cannot undo"


def test_play_in_any_colour_order_and_pass() -> None:
    engine = engine_9x9()
    ok(engine, "play b c3")
    ok(engine, "play black d4")
    ok(engine, "play W e5")
    ok(engine, "play white pass")
    ok(engine, "play w PASS")
    ok(engine, "play b J9")
    assert stones(engine, "b") == {"C3", "D4", "J9"}
    assert stones(engine, "w") == {"E5"}


@pytest.mark.parametrize(
    ("line", "message"),
    [
        ("play x c3", "invalid color or coordinate"),
        ("play b i3", "invalid color or coordinate"),
        ("play b k3", "invalid color or coordinate"),  # off a 9x9 board
        ("play b c10", "invalid color or coordinate"),
        ("play b c0", "invalid color or coordinate"),
        ("play b resign", "invalid color or coordinate"),
        ("play b", "wrong number of arguments"),
    ],
)
def test_play_refuses_bad_arguments(line: str, message: str) -> None:
    assert fails(engine_9x9(), line).startswith(message)


def test_play_refuses_occupied_points_and_suicide() -> None:
    engine = engine_9x9()
    ok(engine, "play b a2")
    ok(engine, "play b b1")
    assert fails(engine, "play w a2") == "illegal move"
    assert fails(engine, "play w a1") == "illegal move"  # no liberty, captures nothing
    assert stones(engine, "white") == set()


KO_SHAPE = ("play b c5", "play b b4", "play b c3", "play w d5", "play w e4", "play w d3", "play w c4")


def test_simple_ko_is_refused_then_allowed_after_moves_elsewhere() -> None:
    engine = engine_9x9()
    for line in KO_SHAPE:
        ok(engine, line)
    ok(engine, "play b d4")  # Black takes the white stone on C4
    assert stones(engine, "white") == {"D5", "E4", "D3"}
    assert fails(engine, "play w c4") == "illegal move"  # immediate retake: ko
    assert ok(engine, "is_legal w c4") == "0"
    ok(engine, "play w j9")
    ok(engine, "play b j1")
    ok(engine, "play w c4")  # after moves elsewhere the retake is legal again
    assert stones(engine, "black") == {"C5", "B4", "C3", "J1"}


def test_positional_superko_preset_refuses_a_repetition_simple_ko_allows() -> None:
    # After Black's ko capture both pass: under simple ko White may retake now, but the retake
    # recreates the position after White's C4, which positional superko forbids.
    lines = (*KO_SHAPE, "play b d4", "play w pass", "play b pass")
    simple, positional = engine_9x9("chinese"), engine_9x9("dipgo")
    for line in lines:
        ok(simple, line)
        ok(positional, line)
    ok(simple, "play w c4")
    assert fails(positional, "play w c4") == "illegal move"
    assert ok(positional, "is_legal w c4") == "0"


def test_captures_and_undo_restore_the_position() -> None:
    engine = engine_9x9()
    for line in ("play b a2", "play w a1", "play b b1"):
        ok(engine, line)
    assert stones(engine, "white") == set()
    assert ok(engine, "captures black") == "1"
    assert ok(engine, "captures white") == "0"
    ok(engine, "undo")
    assert stones(engine, "white") == {"A1"}
    assert ok(engine, "captures black") == "0"
    ok(engine, "undo")
    ok(engine, "undo")
    assert stones(engine, "black") == set()
    assert fails(engine, "undo") == "cannot undo"
    assert fails(engine, "captures red").startswith("invalid colour")


def test_is_legal_and_all_legal() -> None:
    engine = engine_9x9()
    for line in ("play b a2", "play b b1"):
        ok(engine, line)
    assert ok(engine, "is_legal w a1") == "0"  # suicide
    assert ok(engine, "is_legal b a1") == "1"  # filling its own eye is legal
    assert ok(engine, "is_legal w a2") == "0"  # occupied
    assert ok(engine, "is_legal w pass") == "1"
    legal = ok(engine, "all_legal w").split()
    assert len(legal) == 81 - 3
    assert "A1" not in legal and "A2" not in legal
    assert legal[:2] == ["A9", "B9"]  # GNU Go's order: the top row first
    assert set(ok(engine, "all_legal b").split()) == set(legal) | {"A1"}
    assert fails(engine, "is_legal b z1").startswith("invalid color or coordinate")


def test_legality_questions_still_answered_after_two_passes() -> None:
    engine = engine_9x9()
    ok(engine, "play b pass")
    ok(engine, "play w pass")
    assert ok(engine, "is_legal b e5") == "1"
    assert len(ok(engine, "all_legal w").split()) == 81
    ok(engine, "play b e5")  # the game goes on, as in GNU Go
    assert stones(engine, "black") == {"E5"}


def test_list_stones_order() -> None:
    engine = engine_9x9()
    for line in ("play b a1", "play b j1", "play b a9", "play b j9", "play b b1"):
        ok(engine, line)
    assert ok(engine, "list_stones black") == "A9 J9 A1 B1 J1"  # as GNU Go lists them
    assert ok(engine, "list_stones white") == ""


def test_showboard() -> None:
    engine = build_go_engine()
    ok(engine, "boardsize 5")
    ok(engine, "play b a1")
    ok(engine, "play w e5")
    board = ok(engine, "showboard").split("\n")
    assert board[0] == ""
    assert board[1].strip() == "A B C D E"
    assert board[2] == " 5 . . . . O 5"
    assert board[6].startswith(" 1 X . . . . 1")
    assert "BLACK (X) has captured 0 stones" in board[6]
    assert "WHITE (O) has captured 0 stones" in board[5]


def test_genmove_plays_the_generators_move_for_either_colour() -> None:
    generator = ScriptedGenerator([Place(40), PASS, Place(0)])
    engine = build_go_engine(move_generator=generator)
    ok(engine, "boardsize 9")
    assert ok(engine, "genmove b") == "E5"
    assert ok(engine, "genmove black") == "pass"
    assert ok(engine, "genmove w") == "A1"
    assert stones(engine, "b") == {"E5"}
    assert stones(engine, "w") == {"A1"}
    assert [colour for _, colour, _ in generator.calls] == [0, 0, 1]
    assert all(seconds is None for _, _, seconds in generator.calls)  # no time settings: no limit
    ok(engine, "undo")
    assert stones(engine, "w") == set()


def test_genmove_resign_leaves_the_board_alone() -> None:
    engine = build_go_engine(move_generator=ScriptedGenerator([RESIGN]))
    ok(engine, "boardsize 9")
    assert ok(engine, "genmove w") == "resign"
    assert fails(engine, "undo") == "cannot undo"


def test_genmove_refuses_an_illegal_choice_of_the_generator() -> None:
    engine = build_go_engine(move_generator=ScriptedGenerator([Place(40), Place(40)]))
    ok(engine, "boardsize 9")
    ok(engine, "genmove b")
    assert "illegal move E5" in fails(engine, "genmove w")
    assert stones(engine, "w") == set()


def test_genmove_without_a_generator_passes() -> None:
    engine = engine_9x9()
    assert ok(engine, "genmove b") == "pass"
    assert ok(engine, "undo") == ""  # the pass was played
    assert fails(engine, "genmove x").startswith("invalid colour")


def test_reg_genmove_does_not_play_and_cleanup_genmove_does() -> None:
    generator = ScriptedGenerator([Place(40), Place(41)])
    engine = build_go_engine(move_generator=generator)
    ok(engine, "boardsize 9")
    assert ok(engine, "reg_genmove b") == "E5"
    assert stones(engine, "b") == set()
    assert ok(engine, "kgs-genmove_cleanup w") == "F5"
    assert stones(engine, "w") == {"F5"}


def test_the_generator_sees_a_live_state_after_two_passes() -> None:
    generator = ScriptedGenerator([Place(40)])
    engine = build_go_engine(move_generator=generator)
    ok(engine, "boardsize 9")
    ok(engine, "play b pass")
    ok(engine, "play w pass")
    assert ok(engine, "genmove b") == "E5"
    state = generator.calls[0][0]
    assert not state.is_over


def test_komi_changes_the_score_and_keeps_the_game() -> None:
    engine = engine_9x9()
    ok(engine, "play b e5")
    ok(engine, "komi 0.5")
    assert ok(engine, "final_score") == "B+80.5"  # area: all 81 points are Black's
    ok(engine, "komi -3")
    assert ok(engine, "final_score") == "B+84.0"
    ok(engine, "undo")  # the move history survived the komi changes
    ok(engine, "komi 0")
    assert ok(engine, "final_score") == "0"
    assert fails(engine, "komi seven") == "komi not a float"
    assert fails(engine, "komi nan") == "komi not a float"


def test_kgs_rules_switch_the_preset() -> None:
    engine = engine_9x9()
    ok(engine, "komi 0")
    for line in ("play b e5", "play w pass"):
        ok(engine, line)
    assert ok(engine, "final_score") == "B+81.0"  # Chinese: area
    ok(engine, "kgs-rules japanese")
    assert ok(engine, "final_score") == "B+80.0"  # Japanese: territory only
    assert stones(engine, "b") == {"E5"}
    ok(engine, "kgs-rules new_zealand")
    ok(engine, "kgs-rules aga")
    ok(engine, "kgs-rules CHINESE")
    assert fails(engine, "kgs-rules ing").startswith("unknown rules")
    ok(engine, "undo")
    ok(engine, "undo")
    assert fails(engine, "undo") == "cannot undo"


def test_gogui_analyze_commands_name_known_commands() -> None:
    engine = build_go_engine()
    for entry in ok(engine, "gogui-analyze_commands").split("\n"):
        kind, label, command = entry.split("/", 2)
        assert kind and label
        assert ok(engine, f"known_command {command.split()[0]}") == "true"


def test_every_failure_is_a_question_mark_never_an_internal_error() -> None:
    engine = engine_9x9()
    for line in ("play", "genmove", "undo x", "komi", "fixed_handicap x", "set_free_handicap",
                 "loadsgf", "time_left b x 0", "final_status_list", "list_stones", "all_legal purple",
                 "kgs-time_settings", "printsgf a b", "boardsize 9 9", "is_legal b"):
        success, text = ask(engine, line)
        assert not success, line
        assert "internal error" not in text, (line, text)


def test_quit_is_answered_and_ends_the_session() -> None:
    engine = build_go_engine()
    assert not engine.quit_requested
    assert ok(engine, "7 quit") == ""
    assert engine.quit_requested


@pytest.mark.parametrize(
    "line",
    ["protocol_version 2", "name x", "clear_board 9", "showboard x", "final_score now", "undo 2",
     "captures", "list_stones b w", "reg_genmove", "kgs-genmove_cleanup", "gogui-analyze_commands x",
     "kgs-rules", "time_left b 10", "all_legal"],
)
def test_argument_counts_are_checked(line: str) -> None:
    assert fails(engine_9x9(), line).startswith("wrong number of arguments")
