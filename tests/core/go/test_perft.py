"""Perft: the fast core and the naive reference (tests/core/go/reference.py) count the same move trees.

Counted from the empty board on 3x3..5x5, and at depth 2 from positions along long seeded random games
(where kos, snapbacks and superko repetitions actually occur), for every ko rule, and to depth 10 on 2x2 with
pinned counts. A mismatch prints a per-move "divide" table.
"""

from __future__ import annotations

import random

import pytest

from miai.core.errors import IllegalReason
from miai.core.go import GoState, KoRule, Move, Place, Rules, new_game
from tests.core.go.reference import RefGame, perft

KO_RULES = [KoRule.SIMPLE, KoRule.POSITIONAL, KoRule.SITUATIONAL]


def move_key(move: Move) -> str:
    return str(move.point) if isinstance(move, Place) else "pass"


def core_children(state: GoState) -> dict[str, GoState]:
    if state.is_over:
        return {}
    return {move_key(m): state.play_as(state.to_move, m) for m in state.legal_moves()}  # type: ignore[arg-type]


def core_perft(state: GoState, depth: int) -> int:
    if depth == 0 or state.is_over:
        return 1
    return sum(core_perft(child, depth - 1) for child in core_children(state).values())


def divide(state: GoState, ref: RefGame, depth: int) -> str:
    ours = {k: core_perft(c, depth - 1) for k, c in core_children(state).items()}
    theirs = {k: perft(c, depth - 1) for k, c in ref.children().items()}
    lines = [f"{'move':>6} {'core':>8} {'reference':>10}"]
    for key in sorted(set(ours) | set(theirs), key=lambda k: (k == "pass", int(k) if k != "pass" else 0)):
        flag = "" if ours.get(key) == theirs.get(key) else "   <-- differs"
        lines.append(f"{key:>6} {ours.get(key, '-')!s:>8} {theirs.get(key, '-')!s:>10}{flag}")
    return "\n".join(lines)


def check(state: GoState, ref: RefGame, depth: int) -> int:
    ours, theirs = core_perft(state, depth), perft(ref, depth)
    assert ours == theirs, f"perft({depth}) core {ours} != reference {theirs}\n{divide(state, ref, depth)}"
    return ours


# Perft(10) of the 2x2 board, whose tiny cycles repeat positions within a few moves, pinned so that the core
# and the reference cannot drift together. The figures were counted by the naive reference (reference.py,
# written from the SPEC alone and sharing no code with the core), and the core counts the same. Situational
# superko was 10201 while a pass added no situation; since passes count (SPEC G3, issue 20) it is 10073, the
# reference before and after that change counting each. perft(7) of 3x3 moved likewise, 848051 -> 848019
# (too slow to run here).
PERFT_2X2_DEPTH_10 = {KoRule.SIMPLE: 13449, KoRule.POSITIONAL: 9273, KoRule.SITUATIONAL: 10073}


@pytest.mark.parametrize("ko", KO_RULES)
def test_pinned_perft_of_the_2x2_board(ko: KoRule) -> None:
    state = new_game(2, Rules(ko=ko, allowed_sizes=(2,)))
    assert check(state, RefGame.start(2, ko), 10) == PERFT_2X2_DEPTH_10[ko]


@pytest.mark.parametrize("ko", KO_RULES)
@pytest.mark.parametrize(("size", "depth"), [(3, 5), (4, 3), (5, 3)])
def test_perft_from_the_empty_board(size: int, depth: int, ko: KoRule) -> None:
    state = new_game(size, Rules(ko=ko, allowed_sizes=(size,)))
    check(state, RefGame.start(size, ko), depth)


def random_line(size: int, ko: KoRule, seed: int, plies: int) -> list[tuple[GoState, RefGame]]:
    """Positions along one random game played in both implementations side by side."""
    rng = random.Random(seed)
    state = new_game(size, Rules(ko=ko, allowed_sizes=(size,)))
    ref = RefGame.start(size, ko)
    line = []
    for _ in range(plies):
        if state.is_over:
            break
        line.append((state, ref))
        ours = core_children(state)
        theirs = ref.children()
        assert sorted(ours) == sorted(theirs), divide(state, ref, 1)
        placements = [k for k in ours if k != "pass"]
        key = rng.choice(placements) if placements and rng.random() < 0.97 else "pass"
        state, ref = ours[key], theirs[key]
    return line


@pytest.mark.parametrize("ko", KO_RULES)
@pytest.mark.parametrize("size", [3, 4, 5])
def test_perft_along_random_games(size: int, ko: KoRule) -> None:
    positions = ko_refusals = 0
    for seed in range(6 if size < 5 else 3):
        for state, ref in random_line(size, ko, seed, plies=60):
            check(state, ref, 2)
            positions += 1
            ko_refusals += sum(
                1
                for p in range(size * size)
                if state.analyze(Place(p)).reason in (IllegalReason.KO, IllegalReason.SUPERKO)
            )
    assert positions > 50
    assert ko_refusals > 0, "the random games never reached a ko: the test lost its power"
