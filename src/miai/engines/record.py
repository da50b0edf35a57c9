"""A Go game as a compact, JSON-compatible record, so a search can run in another process.

A GoState links to every earlier state (for superko and undo), which pickles badly and deeply. The record
holds only what rebuilds it exactly: size, colours, team sizes, rules, the starting stones (handicap
stones apart) and every recorded event, automatic passes included.
"""

from __future__ import annotations

from dataclasses import fields
from enum import Enum
from typing import Any

from miai.core.go import PASS, RESIGN, TIMEOUT, GoState, Move, Pass, Place, Resign, Rules, Timeout, new_game
from miai.engines.go_search import first_state

_DEFAULTS = Rules()


def _encode_rules(rules: Rules) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for f in fields(Rules):
        value = getattr(rules, f.name)
        if isinstance(value, Enum):
            value = value.value
        elif isinstance(value, tuple):
            value = list(value)
        out[f.name] = value
    return out


def _decode_rules(data: dict[str, Any]) -> Rules:
    values: dict[str, Any] = {}
    for f in fields(Rules):
        if f.name not in data:
            continue
        default = getattr(_DEFAULTS, f.name)
        value = data[f.name]
        if isinstance(default, Enum):
            value = type(default)(value)
        elif isinstance(default, tuple):
            value = tuple(value)
        values[f.name] = value
    return Rules(**values)


def encode_move(move: Move) -> str:
    if isinstance(move, Place):
        return str(move.point)
    if isinstance(move, Pass):
        return "pass"
    if isinstance(move, Resign):
        return "resign"
    if isinstance(move, Timeout):
        return "timeout"
    raise ValueError(f"cannot record move {move!r}")


def decode_move(text: str) -> Move:
    named: dict[str, Move] = {"pass": PASS, "resign": RESIGN, "timeout": TIMEOUT}
    if text in named:
        return named[text]
    if not text.isdigit():
        raise ValueError(f"not a recorded move: {text!r}")
    return Place(int(text))


def encode_state(state: GoState) -> dict[str, Any]:
    start = first_state(state)
    stones = start.position()
    handicap = sorted(p for p, c in stones.items() if c == 0) if start.handicap else []
    if len(handicap) != start.handicap:
        handicap = handicap[: start.handicap]
    setup = sorted([p, c] for p, c in stones.items() if p not in set(handicap))
    return {
        "game": "go",
        "size": state.size,
        "colours": state.colours,
        "seats": [len(s) for s in start.seats],
        "rules": _encode_rules(state.rules),
        "handicap": handicap,
        "setup": setup,
        "to_move": start.to_move,
        "moves": [[colour, encode_move(move)] for colour, move in state.moves()],
    }


def decode_state(record: dict[str, Any]) -> GoState:
    """Rebuild the GoState of `encode_state`; raises ValueError on a malformed record."""
    try:
        if record.get("game") != "go":
            raise ValueError("not a Go record")
        handicap = [int(p) for p in record["handicap"]]
        state = new_game(
            int(record["size"]),
            _decode_rules(record["rules"]),
            colours=int(record["colours"]),
            seats=[int(n) for n in record["seats"]],
            handicap_points=handicap or None,
            setup={int(p): int(c) for p, c in record["setup"]},
            to_move=int(record["to_move"]),
        )
        events = [(int(colour), decode_move(str(text))) for colour, text in record["moves"]]
    except (KeyError, TypeError) as exc:
        raise ValueError(f"malformed Go record: {exc!r}") from None
    i = 0
    while i < len(events):
        colour, move = events[i]
        if isinstance(move, Place | Pass):
            state = state.play_as(colour, move, check_ko=False)
            i += 1
            continue
        if colour != state.to_move:
            raise ValueError(f"malformed Go record: colour {colour} resigns out of turn at event {i + 1}")
        before = len(state.moves())
        state = state.play(move)  # a resignation may be followed by automatic passes, already recorded
        i += len(state.moves()) - before
    return state
