"""load_go: SGF records replayed into Go states, with every oddity of real records reported, not fatal."""

from __future__ import annotations

import re

import pytest

from miai.core.go import PASS, KoRule, Pass, Place, Resign, Rules, Timeout, preset
from miai.core.go.game import EndReason
from miai.core.go.vertex import parse_point
from miai.formats.sgf import Collection, SgfError, encode_point, parse_sgf
from miai.formats.sgf.go import load_go
from tests.core.go.helpers import same_board


def pt(vertex: str, size: int) -> str:
    """SGF letters of a GTP vertex, so tests can be written in the vertices the diagrams show."""
    point = parse_point(vertex, size)
    return encode_point((point % size, point // size), size)


def sgf(text: str) -> bytes:
    return text.encode()


def only(problems: list[str], pattern: str) -> list[str]:
    return [p for p in problems if re.search(pattern, p)]


# ---------------------------------------------------------------- board, moves and passes


def test_moves_are_replayed_on_the_board_size_given() -> None:
    record = load_go(sgf("(;GM[1]FF[4]SZ[5];B[ac];W[cc];B[bb])"))
    same_board(record.state, """
        5 . . . . .
        4 . X . . .
        3 X . O . .
        2 . . . . .
        1 . . . . .
          A B C D E
    """)
    assert record.moves_played == 3
    assert record.state.to_move == 1
    assert record.problems == []


def test_board_size_defaults_to_19_and_accepts_a_square_compose_value() -> None:
    assert load_go(sgf("(;GM[1];B[pd])")).state.size == 19
    assert load_go(sgf("(;SZ[9:9];B[cc])")).state.size == 9


@pytest.mark.parametrize(
    ("size", "message"),
    [("9:13", "square boards only"), ("30", "2 to 25 lines"), ("1", "2 to 25 lines"),
     ("nine", "invalid number")],
)
def test_unusable_board_sizes_are_refused_clearly(size: str, message: str) -> None:
    with pytest.raises(SgfError, match=message):
        load_go(sgf(f"(;SZ[{size}];B[aa])"))


def test_other_games_are_refused() -> None:
    with pytest.raises(SgfError, match=r"GM\[2\] is not a Go record"):
        load_go(sgf("(;GM[2]SZ[8];B[aa])"))


def test_passes_written_empty_or_tt_on_boards_up_to_19() -> None:
    record = load_go(sgf("(;SZ[19];B[pd];W[];B[tt];W[dp])"))
    moves = record.state.moves()
    assert [m for _, m in moves] == [Place(parse_point("Q16", 19)), PASS, PASS, Place(parse_point("D4", 19))]
    assert record.problems == []
    assert record.state.ended is None  # a stone after two passes resumes the game in record replay


def test_tt_is_a_real_point_on_larger_boards() -> None:
    record = load_go(sgf("(;SZ[21];B[tt])"))
    assert record.state.moves() == [(0, Place(parse_point("U2", 21)))]


def test_two_passes_end_the_game() -> None:
    record = load_go(sgf("(;SZ[9];B[ee];W[];B[])"))
    assert record.state.ended is EndReason.PASSES


def test_old_ff3_records_with_long_names_and_numbered_players() -> None:
    data = "(;GaMe[1]FileFormat[3]SiZe[9]AddBlack[ee]PLayer[2];White[cc];Black[];White[gg])"
    record = load_go(sgf(data))
    assert record.state.colour_at(parse_point("E5", 9)) == 0
    assert [c for c, _ in record.state.moves()] == [1, 0, 1]
    assert record.state.to_move == 0
    assert record.problems == []


# ---------------------------------------------------------------- setup, handicap, player to move


def test_handicap_stones_make_white_move_first() -> None:
    record = load_go(sgf("(;SZ[9]HA[2]AB[cg][gc]KM[0.5])"))
    assert record.state.handicap == 2
    assert record.state.to_move == 1
    assert record.state.stones(0) == sorted([parse_point("C3", 9), parse_point("G7", 9)])
    assert record.problems == []


def test_pl_overrides_the_handicap_default() -> None:
    assert load_go(sgf("(;SZ[9]HA[2]AB[cg][gc]PL[B])")).state.to_move == 0


def test_handicap_stones_in_the_second_node_still_count() -> None:
    record = load_go(sgf("(;SZ[9]HA[2];AB[cg][gc];W[ee])"))
    assert record.state.handicap == 2
    assert record.problems == []


def test_handicap_without_stones_is_noted() -> None:
    record = load_go(sgf("(;SZ[9]HA[3];W[ee])"))
    assert record.state.handicap == 0
    assert only(record.problems, r"HA\[3\] but 0 handicap stones")


def test_setup_position_with_every_kind_of_setup_property() -> None:
    record = load_go(sgf("(;SZ[5]AB[aa:bb]AW[ee][dd]AE[ab]PL[W])"))
    same_board(record.state, """
        5 X X . . .
        4 . X . . .
        3 . . . . .
        2 . . . O .
        1 . . . . O
          A B C D E
    """)
    assert record.state.to_move == 1


def test_a_setup_that_leaves_stones_without_liberties_drops_them() -> None:
    record = load_go(sgf("(;SZ[5]AB[aa]AW[ba][ab])"))
    assert record.state.colour_at(parse_point("A5", 5)) is None
    assert only(record.problems, "without liberties; removed: A5")


def test_mid_game_setup_restarts_from_the_new_position() -> None:
    data = f"(;SZ[5];B[{pt('C3', 5)}];W[{pt('D4', 5)}];AE[{pt('C3', 5)}]AB[{pt('B2', 5)}];W[{pt('E5', 5)}])"
    record = load_go(sgf(data))
    same_board(record.state, """
        5 . . . . O
        4 . . . O .
        3 . . . . .
        2 . X . . .
        1 . . . . .
          A B C D E
    """)
    # The colour after the last move (W D4) is Black, but the record lets White move: both are replayed.
    assert [c for c, _ in record.state.moves()] == [1]
    assert only(record.problems, "node 3 adds or removes stones in mid-game.*Black to move")
    assert record.moves_played == 3


def test_mid_game_setup_takes_the_player_to_move_from_pl() -> None:
    record = load_go(sgf("(;SZ[5];B[cc];W[dd];AB[aa]PL[W])"))
    assert record.state.to_move == 1
    assert record.state.moves() == []
    assert only(record.problems, "node 3 adds or removes stones.*White to move")


def test_pl_after_a_move_in_the_same_node_names_the_next_player() -> None:
    record = load_go(sgf("(;SZ[9];B[cc];W[gg]PL[B];B[dd])"))
    assert record.problems == []
    assert len(record.state.moves()) == 3


def test_pl_that_changes_the_turn_in_mid_game_is_noted() -> None:
    record = load_go(sgf("(;SZ[9];B[cc]PL[B];B[dd])"))
    assert only(record.problems, "node 1 changes the player to move")
    assert record.state.colour_at(parse_point("C7", 9)) == 0
    assert record.state.colour_at(parse_point("D6", 9)) == 0


# ---------------------------------------------------------------- illegal moves


def test_a_move_onto_a_stone_is_skipped_and_noted() -> None:
    record = load_go(sgf("(;SZ[9];B[cc];W[cc];B[dd])"))
    assert only(record.problems, r"^move 2 \(W C7\): that point is already occupied; skipped$")
    assert record.moves_played == 2
    assert record.state.stones(1) == []


def test_a_suicide_is_skipped_and_noted() -> None:
    record = load_go(sgf(f"(;SZ[5]AB[{pt('A2', 5)}][{pt('B1', 5)}];W[{pt('A1', 5)}])"))
    assert only(record.problems, r"^move 1 \(W A1\): .*suicide.*; skipped$")
    assert record.state.colour_at(parse_point("A1", 5)) is None


KO_START = """
    5 . . . . .
    4 . X O . .
    3 X O . O .
    2 . X O . .
    1 . . . . .
      A B C D E
"""
def ko_record() -> bytes:
    black = "".join(f"[{pt(v, 5)}]" for v in ("A3", "B4", "B2"))
    white = "".join(f"[{pt(v, 5)}]" for v in ("B3", "C4", "C2", "D3"))
    return sgf(f"(;SZ[5]AB{black}AW{white};B[{pt('C3', 5)}];W[{pt('B3', 5)}])")


@pytest.mark.parametrize(
    ("rules", "word"), [(None, "basic ko rule"), (Rules(ko=KoRule.POSITIONAL), "superko")]
)
def test_a_ko_violation_is_replayed_and_noted(rules: Rules | None, word: str) -> None:
    record = load_go(ko_record(), rules=rules)
    assert only(record.problems, rf"^move 2 \(W B3\): .*{word}.*; replayed anyway$")
    same_board(record.state, KO_START)  # the retake restores the start: that is what the ko rule forbids
    assert record.moves_played == 2
    assert record.state.captured_by == (1, 1)


def test_moves_of_colours_the_game_does_not_have_are_skipped() -> None:
    record = load_go(sgf("(;SZ[9];MM[2:cc];MM[x:dd];B[zz])"))
    assert len(only(record.problems, "not a colour of this game|off the 9x9 board")) == 3
    assert record.state.stones() == []


LONG = "9" * 5000  # more digits than int() converts, and infinite as a float


@pytest.mark.parametrize(
    ("record", "problem"),
    [
        (f"(;SZ[9]MC[3]MU[{LONG}:Ann]MU[1:Bob])", "MU: invalid number"),
        (f"(;SZ[9]MC[3];MM[{LONG}:cc])", "not a colour of this game"),
        ("(;SZ[9]MC[3];MM[\u00b2:cc])", "not a colour of this game"),  # str.isdigit, but not to int()
        (f"(;SZ[9]HA[{LONG}])", "HA: invalid number"),
        (f"(;SZ[9]KM[{LONG}])", "KM: invalid real number"),
        (f"(;SZ[9]TM[60]OT[{LONG}x30 byo-yomi])", "not a time system Miai plays"),
        (f"(;SZ[9]TM[60]OT[5x{LONG} byo-yomi])", "not a time system Miai plays"),
        (f"(;SZ[9]TM[60]OT[{LONG} fischer])", "not a time system Miai plays"),
    ],
)
def test_hostile_numbers_are_noted_not_crashes(record: str, problem: str) -> None:
    loaded = load_go(record.encode())
    assert only(loaded.problems, problem), loaded.problems
    assert loaded.time_system is None and loaded.rules.komi == (0.0, 0.0, 0.0)[: loaded.state.colours]
    assert loaded.players in ({}, {1: ["Bob"]})


# ---------------------------------------------------------------- upto, as GNU Go's loadsgf


GAME = "(;SZ[9];B[cc];W[gg];B[dd];W[];B[ee];W[ff])"


def test_upto_a_number_loads_the_position_before_that_move() -> None:
    record = load_go(sgf(GAME), upto=3)
    assert record.state.stones(0) == [parse_point("C7", 9)]
    assert record.state.stones(1) == [parse_point("G3", 9)]
    assert record.state.to_move == 0
    assert record.moves_played == 2
    assert load_go(sgf(GAME), upto=5).state.to_move == 0  # a pass counts as a move
    assert load_go(sgf(GAME), upto="4").state.to_move == 1
    assert load_go(sgf(GAME), upto=1).state.stones() == []


def test_upto_a_vertex_loads_until_the_first_move_there() -> None:
    record = load_go(sgf(GAME), upto="e5")
    assert record.state.stones(0) == sorted(parse_point(v, 9) for v in ("C7", "D6"))
    assert record.state.to_move == 0
    assert record.problems == []


def test_upto_beyond_the_game_loads_it_all_with_a_note() -> None:
    assert load_go(sgf(GAME), upto=7).problems == []  # the position after the last of six moves
    record = load_go(sgf(GAME), upto=40)
    assert record.moves_played == 6
    assert only(record.problems, "move 40 was asked for, but the main line has 6 moves")
    assert only(load_go(sgf(GAME), upto="A1").problems, "no move at A1")


def test_upto_gives_the_turn_to_the_colour_of_that_move() -> None:
    record = load_go(sgf("(;SZ[9];B[cc];B[dd];W[ee])"), upto=2)
    assert record.state.to_move == 0
    assert only(record.problems, r"stops before B D6.*Black to move")


@pytest.mark.parametrize(
    ("upto", "message"), [(0, "numbered from 1"), ("Z99", "off a 9x9 board"), ("??", "vertex")]
)
def test_bad_upto_values_are_refused_clearly(upto: int | str, message: str) -> None:
    with pytest.raises(ValueError, match=message):
        load_go(sgf(GAME), upto=upto)


def test_only_the_main_line_is_replayed() -> None:
    record = load_go(sgf("(;SZ[9];B[cc](;W[dd];B[ee])(;W[ff]))"))
    assert [m for _, m in record.state.moves()] == [Place(parse_point(v, 9)) for v in ("C7", "D6", "E5")]


# ---------------------------------------------------------------- rules and komi


@pytest.mark.parametrize(
    ("ru", "key"),
    [("Japanese", "japanese"), ("Chinese", "chinese"), ("AGA", "aga"), ("NZ", "nz"), ("New Zealand", "nz"),
     ("Tromp-Taylor", "tromp-taylor"), ("TT", "tromp-taylor"), ("Tromp/Taylor", "tromp-taylor"),
     ("Korean", "korean"), ("Ing", "ing"), ("GOE", "ing"), ("dgo", "dgo"), ("dipgo", "dipgo"),
     ("itsyourturn", "itsyourturn")],
)
def test_ru_names_a_miai_preset(ru: str, key: str) -> None:
    record = load_go(sgf(f"(;SZ[9]RU[{ru}]KM[2.5];B[ee])"))
    assert record.rules_key == key
    assert record.rules == preset(key, 9, komi=2.5)
    assert record.state.rules == record.rules


def test_ru_without_km_keeps_the_preset_komi() -> None:
    assert load_go(sgf("(;SZ[19]RU[Japanese])")).rules.komi == (0.0, 6.5)
    assert load_go(sgf("(;SZ[19]RU[Chinese]HA[2]AB[dd][pp])")).rules.komi == (0.0, 0.5)


def test_unknown_rules_use_gnu_go_like_defaults_with_km_for_white() -> None:
    record = load_go(sgf("(;SZ[9]RU[Martian]KM[6.5])"))
    assert record.rules_key is None
    assert record.rules == Rules(ko=KoRule.SIMPLE, komi=(0.0, 6.5))
    assert record.info["RU"] == "Martian"
    assert load_go(sgf("(;SZ[9])")).rules == Rules(ko=KoRule.SIMPLE, komi=(0.0, 0.0))


def test_a_bad_komi_is_noted_and_ignored() -> None:
    record = load_go(sgf("(;SZ[9]KM[six])"))
    assert record.rules.komi == (0.0, 0.0)
    assert only(record.problems, r"KM: invalid real number \[six\]")


def test_a_preset_on_a_size_it_does_not_offer_is_widened_with_a_note() -> None:
    record = load_go(sgf("(;SZ[11]RU[dgo])"))
    assert record.rules_key == "dgo"
    assert record.rules.allowed_sizes == (11,)
    assert record.rules.ko is KoRule.SIMPLE
    assert only(record.problems, "board size 11 is outside the rules' sizes")


def test_the_rules_argument_wins_and_is_widened_to_the_board() -> None:
    given = preset("itsyourturn", 9)
    record = load_go(sgf("(;SZ[11]RU[Chinese]KM[7.5];B[ee])"), rules=given)
    assert record.rules.komi == given.komi  # KM only applies when no rules are given
    assert record.rules.allowed_sizes == (11,)
    assert record.rules_key == "chinese"
    assert only(record.problems, "board size 11")


def test_rules_that_cannot_play_the_record_are_refused_clearly() -> None:
    with pytest.raises(SgfError, match="positional superko"):
        load_go(sgf("(;SZ[9]MC[3];B[ee])"), rules=Rules(ko=KoRule.SIMPLE))


# ---------------------------------------------------------------- sources, info and notes


def test_every_kind_of_source_reads_the_same() -> None:
    data = sgf("(;SZ[9];B[ee])(;SZ[9];B[aa])")
    collection = parse_sgf(data)
    for source in (data, collection, collection[0]):
        assert load_go(source).state.stones(0) == [parse_point("E5", 9)]
    assert only(load_go(data).problems, "the file holds 2 game trees")
    with pytest.raises(SgfError, match="no game tree"):
        load_go(Collection([]))
    with pytest.raises(TypeError, match="not str"):
        load_go("(;B[aa])")  # type: ignore[arg-type]


def test_the_reader_s_repairs_are_reported_as_problems() -> None:
    record = load_go(sgf("junk (;SZ[9]AB[aa]AB[bb];B[ee]"))
    notes = only(record.problems, "^SGF line 1")
    assert len(notes) == 3  # text before the tree, AB repeated, the missing ')'
    assert record.state.stones(0) == sorted(parse_point(v, 9) for v in ("A9", "B8", "E5"))


def test_info_keeps_the_game_information_only() -> None:
    data = "(;GM[1]FF[4]AP[CGoban:3]SZ[9]PB[Honinbo]PW[Shusaku]BR[9d]DT[1846-09-11]RE[B+2]KM[0]HA[0]" \
           "C[comment]IL[aa]TR[bb]EV[Castle game]GN[Ear-reddening])"
    info = load_go(sgf(data)).info
    assert info == {"AP": "CGoban:3", "PB": "Honinbo", "PW": "Shusaku", "BR": "9d", "DT": "1846-09-11",
                    "RE": "B+2", "KM": "0", "HA": "0", "EV": "Castle game", "GN": "Ear-reddening"}


def test_root_properties_in_later_nodes_are_noted() -> None:
    record = load_go(sgf("(;SZ[9];B[ee]KM[6.5]SZ[13])"))
    assert only(record.problems, r"^node 1: KM, SZ only count in the root node; ignored$")
    assert record.rules.komi == (0.0, 0.0)


# ---------------------------------------------------------------- Miai's extension properties


def test_extension_properties_describe_a_multi_colour_game() -> None:
    data = ("(;SZ[5]MC[3]MT[1][1][2]MR[ko=positional][scoring=dipgo][komi=0 0.5 1]MS[2:cc]MP[2]"
            ";MM[2:aa];B[ee];W[ea];MX[2:resign];MX[2:timeout];B[];W[])")
    record = load_go(sgf(data))
    state = record.state
    assert record.problems == []
    assert state.colours == 3
    assert state.rules.komi == (0.0, 0.5, 1.0)
    assert state.colour_at(parse_point("C3", 5)) == 2
    assert state.colour_at(parse_point("A5", 5)) == 2
    assert [m for _, m in state.moves()][-4:] == [Resign(), Timeout(), PASS, PASS]
    assert state.active == (True, True, False)
    assert state.ended is EndReason.PASSES


def test_unknown_rule_options_are_noted_and_bad_values_refused() -> None:
    record = load_go(sgf("(;SZ[9]MR[ko=simple][colour_of_the_sky=blue])"))
    assert record.rules.ko is KoRule.SIMPLE
    assert only(record.problems, r"MR\[colour_of_the_sky=blue\]: unknown rule option")
    with pytest.raises(SgfError, match=r"MR\[ko=sometimes\]: unknown value 'sometimes'"):
        load_go(sgf("(;SZ[9]MR[ko=sometimes])"))


def test_colour_and_seat_counts_are_checked() -> None:
    with pytest.raises(SgfError, match="2 to 16 colours"):
        load_go(sgf("(;SZ[9]MC[17])"))
    record = load_go(sgf("(;SZ[9]MC[3]MT[1][2])"))
    assert record.state.seats == ((0,), (0,), (0,))
    assert only(record.problems, "MT needs a player count")


def test_leaving_out_of_turn_is_skipped() -> None:
    record = load_go(sgf("(;SZ[9];MX[1:resign];B[ee];MX[0:resign])"))
    assert only(record.problems, r"^node 1 \(W resign\): only the colour to move")
    assert only(record.problems, r"^node 3 \(B resign\): only the colour to move")
    assert record.state.ended is None


def test_an_agreed_draw_ends_the_game() -> None:
    record = load_go(sgf("(;SZ[9];B[ee];MX[draw])"))
    assert record.state.ended is EndReason.AGREED_DRAW


def auto_pass_start() -> bytes:
    """A 5x5 board full of Black but for three eyes: after Black fills one, White has no legal point."""
    return sgf("(;SZ[5]MR[ko=simple]AB[aa:ee]AE[ae][ce][ee]PL[B]")


def test_an_automatic_pass_is_read_back_as_automatic() -> None:
    record = load_go(auto_pass_start() + sgf(";B[ee];W[]MX[1:autopass];B[ae])"))
    assert record.problems == []
    passes = [s for s in record.state.lineage() if isinstance(s.last_move, Pass)]
    assert len(passes) == 1 and passes[0].auto_pass and passes[0].last_colour == 1


def test_an_unmarked_pass_stays_an_ordinary_pass() -> None:
    record = load_go(auto_pass_start() + sgf(";B[ee];W[];B[ae])"))
    assert record.problems == []
    assert not any(s.auto_pass for s in record.state.lineage())


def test_an_automatic_pass_the_rules_would_not_make_is_noted() -> None:
    record = load_go(sgf("(;SZ[9];B[ee];W[]MX[1:autopass])"))
    assert only(record.problems, r"^move 2 \(W pass\): marked as an automatic pass")
    assert record.state.moves()[-1] == (1, PASS)


def test_the_game_core_agrees_about_the_automatic_pass() -> None:
    start = load_go(auto_pass_start() + sgf(")")).state
    assert start.to_move == 0
    after = start.play(Place(parse_point("E1", 5)))
    assert after.auto_pass and after.last_colour == 1 and after.to_move == 0


def test_setup_stones_of_further_colours_accept_rectangles() -> None:
    record = load_go(sgf("(;SZ[5]MC[4]MS[3:dd:ee][2:aa]MS[7:bb][2:zz])"))
    same_board(record.state, """
        5 R . . . .
        4 . . . . .
        3 . . . . .
        2 . . . S S
        1 . . . S S
          A B C D E
    """)
    assert len(only(record.problems, r"^MS\[(7:bb|2:zz)\]: .*; ignored$")) == 2
