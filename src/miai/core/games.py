"""Every game kind Miai offers, registered in `miai.core.registry.KINDS` when this module is imported.

Each kind reads its options (defaults filled in, unknown names refused), starts a game, and reads and writes
move text. Every state accepts `RESIGN` and `TIMEOUT` from `miai.core.twoplayer` (Go's own move objects), so
a server ends a game of any kind the same way; text input knows only `resign` (timeouts are server-side).
Each kind but Go also says what a client draws (`Board`) and what a server game's creator may choose
(`Offer`).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from miai.core import amazons, hex, tanbo
from miai.core.go import GoState, preset
from miai.core.go import new_game as new_go_game
from miai.core.go import vertex as go_vertex
from miai.core.registry import Board, GameKind, Offer, register
from miai.core.twoplayer import Place

__all__ = ["AMAZONS", "GO", "HEX", "TANBO", "options_with_defaults"]


def options_with_defaults(
    kind_key: str, given: Mapping[str, Any], defaults: Mapping[str, Any]
) -> dict[str, Any]:
    if not isinstance(given, Mapping):
        raise ValueError(f"{kind_key} options must be a mapping of names to values")
    unknown = sorted(set(given) - set(defaults))
    if unknown:
        raise ValueError(
            f"unknown {kind_key} option(s) {', '.join(map(repr, unknown))}; known: {', '.join(defaults)}"
        )
    return {**defaults, **given}


def _whole(kind_key: str, name: str, value: Any, allowed: range | tuple[int, ...]) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise ValueError(f"{kind_key} option {name} must be a whole number, not {value!r}")
    if value not in allowed:
        shown = (
            f"{allowed.start}..{allowed.stop - 1}"
            if isinstance(allowed, range)
            else ", ".join(map(str, allowed))
        )
        raise ValueError(f"{kind_key} option {name} must be one of {shown}, not {value}")
    return value


def _expect(state: Any, cls: type, kind_key: str, text: object = "") -> None:
    if not isinstance(state, cls):
        raise ValueError(f"that is not a {kind_key} game (got {type(state).__name__})")
    if not isinstance(text, str):
        raise ValueError(f"a {kind_key} move is text, not {type(text).__name__}")


# ----------------------------------------------------------------------------- Go

GO_DEFAULTS: dict[str, Any] = {
    "size": 19,
    "colours": 2,
    "preset": "dgo",  # with more than two colours and no preset given: dipgo
    "handicap": 0,
    "komi": None,  # None: the preset's komi for this size and handicap
    "seats": None,  # players per team; None: one each
}


def _new_go(options: Mapping[str, Any]) -> GoState:
    chosen = options_with_defaults("go", options, GO_DEFAULTS)
    colours = _whole("go", "colours", chosen["colours"], range(2, 17))
    if "preset" not in options and colours > 2:
        chosen["preset"] = "dipgo"
    size = _whole("go", "size", chosen["size"], range(5, 26))
    handicap = _whole("go", "handicap", chosen["handicap"], range(0, 10))
    komi = chosen["komi"]
    if komi is not None and (isinstance(komi, bool) or not isinstance(komi, int | float)):
        raise ValueError(f"go option komi must be a number, not {komi!r}")
    name = chosen["preset"]
    if not isinstance(name, str):
        raise ValueError(f"go option preset must be a preset name, not {name!r}")
    seats = chosen["seats"]
    if seats is not None and (
        not isinstance(seats, list | tuple)
        or not all(isinstance(n, int) and not isinstance(n, bool) for n in seats)
    ):
        raise ValueError(f"go option seats must list the number of players of each team, not {seats!r}")
    rules = preset(name, size, colours, handicap, None if komi is None else float(komi))
    return new_go_game(size, rules, colours=colours, seats=seats, handicap=handicap)


def _parse_go(state: Any, text: str) -> Any:
    _expect(state, GoState, "go", text)
    return go_vertex.parse_move(text, state.size)


def _format_go(state: Any, move: Any) -> str:
    _expect(state, GoState, "go")
    return go_vertex.format_move(move, state.size)


GO = register(GameKind("go", "Go", _new_go, _parse_go, _format_go, GO_DEFAULTS))

# ----------------------------------------------------------------------------- Amazons

AMAZONS_DEFAULTS: dict[str, Any] = {"size": amazons.SIZE}


def _new_amazons(options: Mapping[str, Any]) -> amazons.AmazonsState:
    chosen = options_with_defaults("amazons", options, AMAZONS_DEFAULTS)
    return amazons.new_game(_whole("amazons", "size", chosen["size"], (amazons.SIZE,)))


def _parse_amazons(state: Any, text: str) -> Any:
    _expect(state, amazons.AmazonsState, "amazons", text)
    return amazons.parse_move(text, state.size)


def _format_amazons(state: Any, move: Any) -> str:
    _expect(state, amazons.AmazonsState, "amazons")
    return amazons.format_move(move, state.size)


def _amazons_board(state: Any) -> Board:
    _expect(state, amazons.AmazonsState, "amazons")
    cells = tuple(-1 if code == amazons.ARROW else code for code in state.cells)
    move = state.last_move
    changed = tuple(move) if isinstance(move, amazons.QueenMove) else ()
    return Board(state.size, cells, changed)


AMAZONS = register(
    GameKind(
        "amazons",
        "Amazons",
        _new_amazons,
        _parse_amazons,
        _format_amazons,
        AMAZONS_DEFAULTS,
        amazons.PLAYER_NAMES,
        _amazons_board,
        (Offer("size", amazons.SIZE, values=(amazons.SIZE,)),),
        legal_in_events=False,
    )
)

# ----------------------------------------------------------------------------- Hex

HEX_DEFAULTS: dict[str, Any] = {"size": 11, "opening": hex.Opening.SWAP.value}


def _new_hex(options: Mapping[str, Any]) -> hex.HexState:
    chosen = options_with_defaults("hex", options, HEX_DEFAULTS)
    size = _whole("hex", "size", chosen["size"], range(hex.MIN_SIZE, hex.MAX_SIZE + 1))
    opening = chosen["opening"]
    if not isinstance(opening, str):
        raise ValueError(f"hex option opening must be one of swap, centre_row_ban, none, not {opening!r}")
    return hex.new_game(size, opening)


def _parse_hex(state: Any, text: str) -> Any:
    _expect(state, hex.HexState, "hex", text)
    return hex.parse_move(text, state.size)


def _format_hex(state: Any, move: Any) -> str:
    _expect(state, hex.HexState, "hex")
    return hex.format_move(move, state.size)


def _hex_board(state: Any) -> Board:
    _expect(state, hex.HexState, "hex")
    move, parent = state.last_move, state.parent
    changed: tuple[int, ...] = ()
    removed: tuple[int, ...] = ()
    if isinstance(move, Place):
        changed = (move.point,)
    elif isinstance(move, hex.Swap) and parent is not None:
        first = parent.cells.index(hex.FIRST + 1)
        placed = hex.mirror(first, state.size)
        changed, removed = ((first,), ()) if placed == first else ((first, placed), (first,))
    return Board(state.size, tuple(state.cells), changed, removed)


HEX = register(
    GameKind(
        "hex",
        "Hex",
        _new_hex,
        _parse_hex,
        _format_hex,
        HEX_DEFAULTS,
        hex.PLAYER_NAMES,
        _hex_board,
        (
            Offer("size", 11, low=hex.MIN_SIZE, high=hex.MAX_SIZE, suggested=hex.OFFERED_SIZES),
            Offer("opening", hex.Opening.SWAP.value, values=tuple(o.value for o in hex.Opening)),
        ),
    )
)

# ----------------------------------------------------------------------------- Tanbo

TANBO_DEFAULTS: dict[str, Any] = {"size": tanbo.SIZE, "cap": tanbo.CAP}


def _new_tanbo(options: Mapping[str, Any]) -> tanbo.TanboState:
    chosen = options_with_defaults("tanbo", options, TANBO_DEFAULTS)
    size = _whole("tanbo", "size", chosen["size"], tanbo.LAYOUT_SIZES)
    cap = _whole("tanbo", "cap", chosen["cap"], range(1, 1_000_001))
    return tanbo.new_game(size, cap=cap)


def _parse_tanbo(state: Any, text: str) -> Any:
    _expect(state, tanbo.TanboState, "tanbo", text)
    return tanbo.parse_move(text, state.size)


def _format_tanbo(state: Any, move: Any) -> str:
    _expect(state, tanbo.TanboState, "tanbo")
    return tanbo.format_move(move, state.size)


def _tanbo_board(state: Any) -> Board:
    _expect(state, tanbo.TanboState, "tanbo")
    move = state.last_move
    placed = (move.point,) if isinstance(move, Place) else ()
    changed = tuple(sorted({*placed, *state.removed}))
    return Board(state.size, tuple(state.cells), changed, tuple(state.removed))


TANBO = register(
    GameKind(
        "tanbo",
        "Tanbo",
        _new_tanbo,
        _parse_tanbo,
        _format_tanbo,
        TANBO_DEFAULTS,
        tanbo.PLAYER_NAMES,
        _tanbo_board,
        (Offer("size", tanbo.SIZE, values=(tanbo.SIZE,)),),  # the server offers the standard start only
    )
)
