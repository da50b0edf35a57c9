"""Perft for any game through the common interface, checked against a naive reference with a divide table.

A reference position offers `children() -> {move text: position}` (empty when the game is over). The core
side is keyed by the kind's canonical move text, so the two also have to agree on notation.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

Reference = Any  # a reference position: anything with children() -> {move text: position}
Format = Callable[[Any, Any], str]


def core_children(state: Any, fmt: Format) -> dict[str, Any]:
    if state.is_over:
        return {}
    out = {fmt(state, move): state.play(move) for move in state.legal_moves()}
    assert len(out) == len(state.legal_moves()), "two legal moves share one text"
    return out


def core_perft(state: Any, depth: int, fmt: Format) -> int:
    if depth == 0 or state.is_over:
        return 1
    if depth == 1:
        return len(state.legal_moves())
    return sum(core_perft(child, depth - 1, fmt) for child in core_children(state, fmt).values())


def ref_perft(ref: Reference, depth: int) -> int:
    if depth == 0:
        return 1
    children = ref.children()
    if not children:
        return 1
    if depth == 1:
        return len(children)
    return sum(ref_perft(child, depth - 1) for child in children.values())


def divide(state: Any, ref: Reference, depth: int, fmt: Format) -> str:
    ours = {k: core_perft(c, depth - 1, fmt) for k, c in core_children(state, fmt).items()}
    theirs = {k: ref_perft(c, depth - 1) for k, c in ref.children().items()}
    lines = [f"{'move':>14} {'core':>8} {'reference':>10}"]
    for key in sorted(set(ours) | set(theirs)):
        flag = "" if ours.get(key) == theirs.get(key) else "   <-- differs"
        lines.append(f"{key:>14} {ours.get(key, '-')!s:>8} {theirs.get(key, '-')!s:>10}{flag}")
    return "\n".join(lines)


def check_perft(state: Any, ref: Reference, depth: int, fmt: Format) -> int:
    ours, theirs = core_perft(state, depth, fmt), ref_perft(ref, depth)
    assert ours == theirs, (
        f"perft({depth}) core {ours} != reference {theirs}\n{divide(state, ref, depth, fmt)}"
    )
    return ours


def check_same_moves(state: Any, ref: Reference, fmt: Format) -> tuple[dict[str, Any], dict[str, Reference]]:
    """Depth-1 agreement, returning both child maps so a caller can walk a line through both."""
    ours, theirs = core_children(state, fmt), ref.children()
    assert sorted(ours) == sorted(theirs), divide(state, ref, 1, fmt)
    return ours, theirs
