"""Miai's own records survive dump_go -> load_go without loss, for random legal games of 2..6 colours."""

from __future__ import annotations

import random

import pytest
from hypothesis import HealthCheck, assume, event, given, settings
from hypothesis import strategies as st

from miai.core.errors import InvalidRules
from miai.core.go import (
    PASS,
    RESIGN,
    TIMEOUT,
    DeadStones,
    GoState,
    HandicapBonus,
    KoRule,
    Pass,
    Place,
    Resign,
    Rules,
    Scoring,
    Suicide,
    Timeout,
    new_game,
)
from miai.core.go.rules import HandicapLayout
from miai.formats.sgf import GameTree, Node, parse_sgf
from miai.formats.sgf.go import dump_go, load_go


@st.composite
def rules_for(draw: st.DrawFn, size: int, colours: int) -> Rules:
    ko = draw(st.sampled_from(list(KoRule))) if colours == 2 else KoRule.POSITIONAL
    komi_values = st.floats(-50, 50, allow_nan=False, allow_infinity=False) | st.sampled_from([0.5, 6.5, 7.5])
    sizes = draw(st.sampled_from(["default", "exact", "list"]))
    allowed = {
        "default": Rules().allowed_sizes,
        "exact": (size,),
        "list": tuple(sorted({size, 9, 13, 19})),
    }[sizes]
    return Rules(
        ko=ko,
        scoring=draw(st.sampled_from(list(Scoring))),
        suicide=draw(st.sampled_from(list(Suicide))),
        dead_stones=draw(st.sampled_from(list(DeadStones))),
        komi=tuple(draw(st.lists(komi_values, min_size=0, max_size=colours))),
        capture_points=draw(st.booleans()),
        remove_inactive_stones=draw(st.booleans()),
        move_limit_rounds=draw(st.none() | st.integers(1, 40)),
        handicap_bonus=draw(st.sampled_from(list(HandicapBonus))),
        handicap_layout=draw(st.sampled_from(list(HandicapLayout))),
        seki_territory=draw(st.booleans()),
        allowed_sizes=allowed,
        max_colours=draw(st.integers(colours, 16)),
    )


@st.composite
def games(draw: st.DrawFn, most_colours: int = 6) -> GoState:
    """A random legal game, moves chosen by index into legal_moves(), with resignations and timeouts."""
    colours = draw(st.integers(2, most_colours))
    size = draw(st.integers(5, 13))
    rules = draw(rules_for(size, colours))
    seats = draw(st.lists(st.integers(1, 3), min_size=colours, max_size=colours))
    points = st.integers(0, size * size - 1)
    handicap_points = None
    if colours == 2 and draw(st.booleans()):
        handicap_points = draw(st.lists(points, min_size=2, max_size=6, unique=True))
    setup = draw(st.dictionaries(points, st.integers(0, colours - 1), max_size=6))
    to_move = draw(st.none() | st.integers(0, colours - 1))
    try:
        state = new_game(size, rules, colours, seats, handicap_points=handicap_points, setup=setup,
                         to_move=to_move)
    except InvalidRules:
        assume(False)  # a random setup left a chain without liberties
        raise
    for _ in range(draw(st.integers(0, 150))):
        if state.is_over:
            break
        roll = draw(st.integers(0, 99))
        if roll < 3 and len(state.seats[state.to_move]) > 1:
            state = state.play(RESIGN if roll < 2 else TIMEOUT)  # the team keeps the move
        elif roll == 3 and draw(st.integers(0, 3)) == 0:
            state = state.play(RESIGN)  # may eliminate a colour
        else:
            moves = state.legal_moves()
            state = state.play(moves[draw(st.integers(0, len(moves) - 1))] if roll > 10 else PASS)
    if not state.is_over and draw(st.integers(0, 15)) == 7:
        state = state.agreed_draw()
    return state


def events(state: GoState) -> list[tuple[object, ...]]:
    """Every state transition: who did what, from which seat, and whether it was an automatic pass."""
    return [
        (s.last_move, getattr(s, "last_colour", None), getattr(s, "last_seat", None), s.auto_pass)
        for s in list(state.lineage())[-2::-1]
    ]


def snapshot(state: GoState) -> tuple[object, ...]:
    return (
        state.size, state.colours, state.rules, state.position(), state.to_move, state.seats, state.seat,
        state.active, state.eliminated, state.captured_by, state.lost, state.handicap, state.ended,
        state.passes, state.rounds, state.round_mask, state.plies, state.hash, state.prev_hash,
    )


def start_of(state: GoState) -> GoState:
    return list(state.lineage())[-1]


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(games())
def test_dump_then_load_gives_the_same_game(state: GoState) -> None:
    data = dump_go(state)
    record = load_go(data)
    assert record.problems == []
    loaded = record.state
    assert snapshot(loaded) == snapshot(state)
    assert events(loaded) == events(state)
    assert snapshot(start_of(loaded)) == snapshot(start_of(state))
    assert loaded.moves() == state.moves()
    assert record.moves_played == sum(isinstance(m, Place | Pass) for m, *_ in events(state))
    assert dump_go(loaded) == data  # writing is deterministic


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(games(), st.data())
def test_upto_stops_before_the_numbered_move(state: GoState, data: st.DataObject) -> None:
    numbered = [s for s in list(state.lineage())[::-1] if isinstance(s.last_move, Place | Pass)]
    assume(numbered)
    n = data.draw(st.integers(1, len(numbered)), label="upto")
    record = load_go(dump_go(state), upto=n)
    before = numbered[n - 1].parent
    assert before is not None
    assert record.problems == []
    assert snapshot(record.state) == snapshot(before)
    assert record.state.to_move == numbered[n - 1].last_colour


@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(games(most_colours=2))
def test_two_colour_moves_use_standard_properties_only(state: GoState) -> None:
    tree = parse_sgf(dump_go(state))[0]
    standard_moves = 0
    for node in list(tree.main_line())[1:]:
        assert not node.has("MM")
        assert not node.has("MS")
        standard_moves += node.has("B") or node.has("W")
    assert standard_moves == sum(isinstance(m, Place | Pass) for m, *_ in events(state))


@pytest.mark.parametrize("colours", [7, 8])
def test_games_of_seven_and_eight_colours_round_trip(colours: int) -> None:
    rng = random.Random(colours)
    rules = Rules(komi=tuple(rng.choice([0.0, 0.5, 1.5]) for _ in range(colours)), capture_points=True)
    state = new_game(9, rules, colours, seats=[rng.randint(1, 3) for _ in range(colours)])
    while not state.is_over and state.plies < 400:
        if len(state.seats[state.to_move]) > 1 and rng.random() < 0.03:
            state = state.play(RESIGN if rng.random() < 0.5 else TIMEOUT)
        else:
            moves = state.legal_moves()
            state = state.play(rng.choice(moves[:-1]) if len(moves) > 1 and rng.random() < 0.9 else PASS)
    assert any(isinstance(m, Resign | Timeout) for _, m in state.moves())
    record = load_go(dump_go(state))
    assert record.problems == []
    assert snapshot(record.state) == snapshot(state)
    assert events(record.state) == events(state)


GO_PROPERTIES = ["B", "W", "AB", "AW", "AE", "PL", "MM", "MS", "MX", "MP", "HA", "KM", "SZ", "RU", "MC", "MT",
                 "MR"]
ODD_VALUES = st.sampled_from(
    ["", "aa", "cc", "ee", "tt", "zz", "a", "aa:cc", "cc:aa", "0", "1", "2", "3", "-1", "19", "9:13", "B",
     "W", "2:cc", "0:", "1:resign", "0:timeout", "1:autopass", "2:autopass", "draw", "x:y", "ko=simple",
     "ko=nonsense", "komi=1 2 3", "Japanese", "6.5", "many"]
)
odd_nodes = st.dictionaries(
    st.sampled_from(GO_PROPERTIES), st.lists(ODD_VALUES, min_size=1, max_size=3), max_size=4
)


@settings(max_examples=300, deadline=None)
@given(
    st.lists(odd_nodes, min_size=1, max_size=12),
    st.sampled_from(["5", "9", "13"]),
    st.none() | st.integers(1, 12) | st.sampled_from(["C3", "A1"]),
)
def test_any_mix_of_go_properties_loads_or_fails_cleanly(
    nodes: list[dict[str, list[str]]], size: str, upto: int | str | None
) -> None:
    """Never a crash: a record either loads (with notes) or raises a ValueError with a message."""
    root = Node({"SZ": [size], **nodes[0]})  # the first node's properties go in the root
    node = root
    for properties in nodes[1:]:
        node = node.new_child(properties)
    try:
        record = load_go(GameTree(root), upto=upto)
    except ValueError as err:
        event("refused")
        assert str(err)
        return
    event("loaded with notes" if record.problems else "loaded")
    assert record.state.size in record.rules.allowed_sizes
    assert all(isinstance(problem, str) and problem for problem in record.problems)
    again = load_go(dump_go(record.state, record.info, record.rules_key))
    assert again.state.position() == record.state.position()
    assert again.state.to_move == record.state.to_move
