"""record_to_tree / dump_go: a Go state's whole game as SGF, standard where standard SGF can say it."""

from __future__ import annotations

import pytest

from miai import __version__
from miai.core.go import (
    PASS,
    RESIGN,
    TIMEOUT,
    DeadStones,
    GoState,
    KoRule,
    Place,
    Rules,
    new_game,
    preset,
    score,
)
from miai.core.go.vertex import parse_point
from miai.formats.sgf import GameTree, Node, SgfError, parse_sgf
from miai.formats.sgf.go import dump_go, load_go, record_to_tree


def play(state: GoState, *vertices: str) -> GoState:
    for vertex in vertices:
        state = state.play(PASS if vertex == "pass" else Place(parse_point(vertex, state.size)))
    return state


def nodes(tree: GameTree) -> list[Node]:
    return list(tree.main_line())


def test_a_two_colour_game_uses_standard_properties() -> None:
    state = play(new_game(9, Rules(ko=KoRule.SIMPLE, komi=(0.0, 6.5))), "C3", "pass", "G7")
    root, *moves = nodes(record_to_tree(state))
    assert list(root.properties)[:7] == ["GM", "FF", "CA", "AP", "SZ", "KM", "MR"]
    assert root.get("AP") == f"Miai:{__version__}"
    assert (root.get("SZ"), root.get("KM")) == ("9", "6.5")
    for absent in ("MC", "MT", "HA", "PL", "RE", "AB", "AW", "RU"):
        assert not root.has(absent)
    assert [node.properties for node in moves] == [{"B": ["cg"]}, {"W": [""]}, {"B": ["gc"]}]


def test_handicap_stones_go_in_ab_with_ha_and_white_moves_first() -> None:
    state = new_game(9, preset("japanese", 9, handicap=2), handicap=2)
    root = record_to_tree(state, rules_key="japanese").root
    assert root.get("HA") == "2"
    assert sorted(root.get_all("AB")) == ["cg", "gc"]  # GTP layout: C3 and G7
    assert root.get("KM") == "0.5"
    assert root.get("RU") == "Japanese"
    assert not root.has("PL")  # White moves first after handicap stones: the reader's default too


@pytest.mark.parametrize(("handicap", "to_move", "pl"), [(0, 1, "W"), ([0, 80], 0, "B")])
def test_pl_is_written_when_the_first_player_is_not_the_default(
    handicap: int | list[int], to_move: int, pl: str
) -> None:
    if isinstance(handicap, list):
        state = new_game(9, handicap_points=handicap, to_move=to_move)
    else:
        state = new_game(9, setup={40: 0, 41: 1}, to_move=to_move)
    root = record_to_tree(state).root
    assert root.get("PL") == pl
    assert load_go(dump_go(state)).state.to_move == to_move


@pytest.mark.parametrize(
    ("key", "ru"),
    [("japanese", "Japanese"), ("ing", "GOE"), ("tromp-taylor", "Tromp-Taylor"), ("nz", "NZ"),
     ("dgo", "dgo"), ("house-rules", "house-rules")],
)
def test_rules_keys_are_written_as_standard_ru_names(key: str, ru: str) -> None:
    root = record_to_tree(new_game(9), rules_key=key).root
    assert root.get("RU") == ru
    assert load_go(dump_go(new_game(9), rules_key=key)).rules_key == (None if key == "house-rules" else key)


def test_ru_from_info_is_kept_when_no_key_is_given() -> None:
    assert record_to_tree(new_game(9), {"RU": "Martian"}).root.get("RU") == "Martian"
    assert record_to_tree(new_game(9), {"RU": "Martian"}, "aga").root.get("RU") == "AGA"


# ---------------------------------------------------------------- results


def result_of(state: GoState, info: dict[str, str] | None = None) -> str | None:
    return record_to_tree(state, info).root.get("RE")


def test_resignation_and_timeout_results() -> None:
    assert result_of(new_game(9).play(RESIGN)) == "W+R"
    assert result_of(play(new_game(9), "E5").play(TIMEOUT)) == "B+T"


def test_a_scored_result_gives_the_margin() -> None:
    state = play(new_game(5, Rules(komi=(0.0, 0.5))), "C3", "pass", "pass")
    totals = score(state)
    assert (totals[0].total, totals[1].total) == (25, 0.5)
    assert result_of(state) == "B+24.5"
    white_wins = play(new_game(5, Rules(komi=(0.0, 30.0))), "C3", "pass", "pass")
    assert result_of(white_wins) == "W+5"


def test_draws_are_written_as_zero() -> None:
    assert result_of(play(new_game(5), "pass", "pass")) == "0"
    assert result_of(play(new_game(5), "C3").agreed_draw()) == "0"


def test_no_result_without_a_dead_stone_verdict_unless_info_gives_one() -> None:
    state = play(new_game(5, Rules(dead_stones=DeadStones.AUTO)), "C3", "pass", "pass")
    assert result_of(state) is None
    assert result_of(state, {"RE": "W+3"}) == "W+3"
    assert result_of(play(new_game(5), "C3"), {"RE": "B+R"}) == "B+R"  # a game still in progress


def test_more_colours_get_a_ranking_in_mo_and_their_winners_in_re() -> None:
    rules = Rules(komi=(0.0, 0.0, 0.0))
    resigned = new_game(5, rules, colours=3).play(RESIGN).play(RESIGN)
    root = record_to_tree(resigned).root
    assert root.get("MO") == "last_colour:2>1>0"
    assert root.get("RE") == "2+R"  # colours 2 and up by number, as in MO
    scored = play(new_game(5, rules, colours=3), "A1", "E5", "pass", "pass", "pass")
    root = record_to_tree(scored).root
    assert root.get("MO") == "passes:0(1)=1(1)>2(0)"
    assert root.get("RE") == "B=W+1"  # a shared win: colour 2 is one point behind
    timed_out = play(new_game(5, rules, colours=3), "A1").play(TIMEOUT).play(RESIGN)
    assert record_to_tree(timed_out).root.get("RE") == "B+R"
    even = play(new_game(5, rules, colours=3), "pass", "pass", "pass")
    assert record_to_tree(even).root.get("RE") == "0"  # every colour in play on the same score
    agreed = new_game(5, rules, colours=3).play(RESIGN).agreed_draw()
    assert [record_to_tree(agreed).root.get(p) for p in ("RE", "MO")] == ["0", "agreed_draw:1=2>0"]


# ---------------------------------------------------------------- extension properties


def test_more_colours_use_extension_properties() -> None:
    rules = Rules(komi=(0.0, 0.5, 1.0))
    state = new_game(5, rules, colours=3, seats=[1, 2, 1], setup={12: 2}, to_move=2)
    state = play(state, "A1", "B1", "pass")
    root, *moves = nodes(record_to_tree(state))
    assert root.get("MC") == "3"
    assert root.get_all("MT") == ["1", "2", "1"]
    assert root.get_all("MS") == ["2:cc"]
    assert root.get("MP") == "2"
    assert "komi=0 0.5 1" in root.get_all("MR")
    assert [node.properties for node in moves] == [{"MM": ["2:ae"]}, {"B": ["be"]}, {"W": [""]}]


def test_leave_events_automatic_passes_and_draws_have_nodes_of_their_own() -> None:
    black_but_three_eyes = dict.fromkeys((p for p in range(25) if p not in (0, 2, 4)), 0)  # A1 C1 E1 empty
    state = new_game(5, Rules(ko=KoRule.SIMPLE), seats=[2, 1], setup=black_but_three_eyes)
    state = state.play(RESIGN).play(Place(parse_point("E1", 5)))  # White then has no legal point
    state = state.agreed_draw()
    moves = nodes(record_to_tree(state))[1:]
    assert [node.properties for node in moves] == [
        {"MX": ["0:resign"]}, {"B": ["ee"]}, {"W": [""], "MX": ["1:autopass"]}, {"MX": ["draw"]},
    ]


def test_info_is_written_but_cannot_override_what_the_state_says() -> None:
    info = {"PB": "Honinbō Shūsaku", "PW": "Gennan Inseki", "DT": "1846-09-11", "SZ": "19", "KM": "99",
            "AP": "Other:1", "GM": "2", "AB": "aa"}
    data = dump_go(new_game(9), info)
    root = parse_sgf(data)[0].root
    assert [root.get(p) for p in ("PB", "PW", "DT")] == ["Honinbō Shūsaku", "Gennan Inseki", "1846-09-11"]
    assert [root.get(p) for p in ("SZ", "KM", "GM", "AB")] == ["9", "0", "1", None]
    assert root.get("AP") == f"Miai:{__version__}"
    assert load_go(data).info["PB"] == "Honinbō Shūsaku"
    with pytest.raises(SgfError, match="invalid property identifier"):
        record_to_tree(new_game(9), {"pb": "lower case"})


def test_every_player_of_every_team_is_in_the_record() -> None:
    state = play(new_game(5, Rules(komi=(0.0, 0.0, 0.0)), colours=3, seats=[2, 2, 2]), "C3")
    players = {0: ["Ann", "Miai, level 3"], 1: ["Bob", "Cy"], 2: ["Dee", "Eve"]}
    data = dump_go(state, {"PB": "someone else"}, players=players)
    root = parse_sgf(data)[0].root
    assert [root.get("PB"), root.get("PW")] == ["Ann, Miai, level 3", "Bob, Cy"]  # what other programs show
    assert root.get_all("MU") == ["0:Ann", "0:Miai, level 3", "1:Bob", "1:Cy", "2:Dee", "2:Eve"]
    record = load_go(data)
    assert record.players == players and record.problems == []
    assert dump_go(record.state, record.info, record.rules_key, players=record.players) == data
    one_each = dump_go(new_game(5), players={0: ["Ann"], 1: ["Bob"]})
    assert b"MU[" not in one_each  # PB and PW say it all
    assert load_go(one_each).players == {0: ["Ann"], 1: ["Bob"]}
    teams = dump_go(new_game(5, seats=[2, 1]), players={0: ["Ann", "Cy"], 1: ["Bob"]})
    assert parse_sgf(teams)[0].root.get_all("MU") == ["0:Ann", "0:Cy", "1:Bob"]


def test_unreadable_players_are_noted_and_skipped() -> None:
    data = b"(;GM[1]SZ[5]MC[3]MU[2:Dee][3:Zed][Ann][x:Bob]PB[Ann])"
    record = load_go(data)
    assert record.players == {2: ["Dee"]}
    assert record.problems == [
        "MU[3:Zed]: the game has no colour 3; ignored",
        "MU: invalid compose value [Ann]: expected two parts separated by ':'; ignored",
        "MU: invalid number [x]: expected an integer such as 19 or -3; ignored",
    ]


def test_the_output_is_clean_ff4() -> None:
    state = play(new_game(9, preset("chinese", 9, handicap=3), handicap=3), "E5", "pass", "pass")
    data = dump_go(state, {"PB": "Black", "PW": "White"}, "chinese")
    collection = parse_sgf(data)
    assert collection.warnings == []
    assert data.startswith(b"(;GM[1]FF[4]CA[UTF-8]")
    assert data.endswith(b")\n")
