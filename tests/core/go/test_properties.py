"""Hypothesis properties of the Go core over random legal games of 2..4 colours."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from miai.core.go import PASS, GoState, KoRule, Move, Place, Rules, Suicide, new_game
from miai.core.go.placement import build_position

rules_strategy = st.builds(
    Rules,
    ko=st.sampled_from(list(KoRule)),
    suicide=st.sampled_from(list(Suicide)),
    komi=st.just((0.0, 0.0)),
)


@st.composite
def games(draw: st.DrawFn) -> list[GoState]:
    """A random legal game: every state from the start, choosing moves by index into the legal moves."""
    size = draw(st.integers(5, 9))
    colours = draw(st.integers(2, 4))
    rules = draw(rules_strategy)
    if colours > 2:
        rules = Rules(ko=KoRule.POSITIONAL, suicide=rules.suicide, komi=(0.0,) * colours)
    state = new_game(size, rules, colours=colours)
    states = [state]
    for _ in range(draw(st.integers(0, 120))):
        if state.is_over:
            break
        moves = state.legal_moves()
        pick = draw(st.integers(0, len(moves) - 1))
        move = moves[pick] if pick % 13 else PASS if pick % 2 else moves[pick]
        state = state.play(move)
        states.append(state)
    return states


def snapshot(state: GoState) -> tuple[object, ...]:
    return tuple(
        getattr(state, name) if name != "cells" else bytes(state.cells) for name in GoState.__slots__
    )


@settings(max_examples=60, deadline=None)
@given(games())
def test_no_chain_without_liberties_and_hash_matches(states: list[GoState]) -> None:
    for state in states:
        for p in state.stones():
            assert state.liberties(p), f"chain at {p} has no liberty after {state.last_move}"
        assert state.hash == state.hash_from_scratch()


@settings(max_examples=60, deadline=None)
@given(games())
def test_incremental_arrays_equal_a_rebuild(states: list[GoState]) -> None:
    """Pseudo-liberties and sizes kept incrementally equal those of a position built from scratch."""
    for state in states:
        n2 = state.geo.n2
        rebuilt, board_hash = build_position(state.geo, state.position())
        assert board_hash == state.hash
        for p in state.stones():
            head, fresh_head = state.cells[n2 + p], rebuilt[n2 + p]
            assert state.cells[3 * n2 + head] == rebuilt[3 * n2 + fresh_head]
            assert state.cells[4 * n2 + head] == rebuilt[4 * n2 + fresh_head]
            assert state.chain_points(p) == sorted(
                q for q in state.stones() if rebuilt[n2 + q] == fresh_head
            )


@settings(max_examples=40, deadline=None)
@given(games(), st.data())
def test_play_never_mutates_its_input(states: list[GoState], data: st.DataObject) -> None:
    state = states[-1]
    if state.is_over:
        return
    before = snapshot(state)
    move = data.draw(st.sampled_from(state.legal_moves()))
    state.play(move)
    state.analyze(move)
    state.legal_points()
    assert snapshot(state) == before


@settings(max_examples=40, deadline=None)
@given(games(), st.integers(0, 7))
def test_play_commutes_with_board_symmetries(states: list[GoState], k: int) -> None:
    """Replaying the game transformed by a symmetry gives the transformed board at every step."""
    every = list(reversed(list(states[-1].lineage())))  # automatic passes included
    first = every[0]
    mapping = first.geo.symmetries()[k]
    mirrored = new_game(first.size, first.rules, colours=first.colours)
    for state in every[1:]:
        move: Move = state.last_move  # type: ignore[assignment]
        if isinstance(move, Place):
            move = Place(mapping[move.point])
        mirrored = mirrored.play_as(state.last_colour, move)  # type: ignore[arg-type]
        assert mirrored.position() == {mapping[p]: c for p, c in state.position().items()}
        assert sorted(mirrored.legal_points(state.to_move)) == sorted(
            mapping[p] for p in state.legal_points(state.to_move)
        )


@settings(max_examples=40, deadline=None)
@given(games())
def test_fast_legality_agrees_with_full_resolution(states: list[GoState]) -> None:
    for state in states[::5]:
        for colour in state.active_colours:
            fast = set(state.legal_points(colour))
            full = {p for p in range(state.geo.n2) if state.analyze(Place(p), colour).legal}
            assert fast == full
