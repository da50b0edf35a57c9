"""SGF records of Amazons (GM[18]), Hex (GM[11]) and Tanbo (GM[1000], a Miai extension).

    data = dump_game("hex", state, {"PB": "Ann", "PW": "Bob"})
    state = load_game(data)              # the main line replayed through the rules core
    record = read_game(data)             # .kind, .state and .info (the other root properties)
    data = dump_game("hex", state, info, times={1: TimeLeft(0, 291.5)})   # BL/WL, OB/OW after moves

docs/sgf-other-games.md describes every property. In short: the start position is always written as setup
(AB/AW, and AA arrows for Amazons) with PL for the player to move; each move is a B or W node; a
resignation or timeout is RE[B+R] / RE[W+T]. Natural endings are not trusted from RE: the replay decides.
Go records belong to the Go bridge (miai.formats.sgf.go).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any

from miai.core import amazons, hex, tanbo
from miai.core.errors import InvalidRules
from miai.core.twoplayer import RESIGN, TIMEOUT, EndReason, Place, Resign, Timeout
from miai.formats.sgf import limits
from miai.formats.sgf.errors import SgfError
from miai.formats.sgf.grammar import parse_sgf
from miai.formats.sgf.limits import Budget
from miai.formats.sgf.times import TimeLeft, TimeSystem, node_times, read_time_system, time_left_properties
from miai.formats.sgf.tree import GameTree, Node
from miai.formats.sgf.values import decode_point, decode_point_list, encode_point
from miai.formats.sgf.writer import dump_sgf

__all__ = ["GAME_NUMBERS", "PLAYER_LETTERS", "TANBO_CAP", "LoadedGame", "dump_game", "load_game", "read_game"]

AnyState = amazons.AmazonsState | hex.HexState | tanbo.TanboState

GAME_NUMBERS = {"amazons": "18", "hex": "11", "tanbo": "1000"}  # GM values; 1000 is Miai's own for Tanbo
TANBO_CAP = "ML"  # Tanbo's safety ply cap (T5), written only when it is not the default 2,000
VOID = "Void"  # RE of a game that was never played out (cancelled): `info` may give it for an open game
_KIND_OF_NUMBER = {number: key for key, number in GAME_NUMBERS.items()}
_STATE_TYPES: dict[str, type] = {
    "amazons": amazons.AmazonsState,
    "hex": hex.HexState,
    "tanbo": tanbo.TanboState,
}
# SGF colour letter of player 0 and player 1: White starts Amazons (A1); Black starts Hex and Tanbo.
PLAYER_LETTERS = {"amazons": ("W", "B"), "hex": ("B", "W"), "tanbo": ("B", "W")}
_STRUCTURAL = frozenset(
    {"FF", "CA", "GM", "SZ", "AB", "AW", "AE", "AA", "PL", "RE", "RU", TANBO_CAP, "B", "W"}
)


@dataclass
class LoadedGame:
    kind: str  # "amazons", "hex" or "tanbo"
    state: AnyState
    info: dict[str, list[str]] = field(default_factory=dict)  # root properties that are not the game itself
    time_system: TimeSystem | None = None  # the clock TM and OT describe
    times: dict[int, TimeLeft] = field(default_factory=dict)  # main-line node (= move number) -> time left


# ----------------------------------------------------------------------------- writing


def dump_game(
    kind_key: str,
    state: AnyState,
    info: Mapping[str, str | Iterable[str]] | None = None,
    times: Mapping[int, TimeLeft] | None = None,
) -> bytes:
    """The whole game that led to `state` as SGF bytes; `info` adds root properties such as PB, PW, DT (and
    TM, OT). `times` maps a move number (from 1, the ply after the move) to the mover's time left (colour =
    player index), written in the move's node as BL/WL and OB/OW."""
    if kind_key == "go":
        raise ValueError("Go records are written by the Go bridge (miai.formats.sgf.go.dump_go)")
    if kind_key not in GAME_NUMBERS:
        raise ValueError(f"no SGF record format for game {kind_key!r}; known: {', '.join(GAME_NUMBERS)}")
    if not isinstance(state, _STATE_TYPES[kind_key]):
        raise ValueError(f"that state is a {type(state).__name__}, not a {kind_key} game")
    letters = PLAYER_LETTERS[kind_key]
    start = state.start()
    root = Node({"GM": GAME_NUMBERS[kind_key], "SZ": str(state.size)})
    if isinstance(start, hex.HexState):
        root.set("RU", start.opening.value)
    if isinstance(start, tanbo.TanboState) and start.cap != tanbo.CAP:
        root.set(TANBO_CAP, str(start.cap))
    for prop, values in _setup(start).items():
        root.set(prop, values)
    root.set("PL", letters[start.to_move])
    if state.outcome is not None:
        root.set("RE", _result_text(state, letters))
    for prop, given in (info or {}).items():
        void = prop == "RE" and given in (VOID, [VOID]) and state.outcome is None
        if prop in _STRUCTURAL and not void:
            raise ValueError(f"info may not set {prop}: the record writes it from the game itself")
        root.set(prop, given)
    node = root
    times = times or {}
    for number, (player, move) in enumerate(state.moves(), start=1):
        if isinstance(move, Resign | Timeout):
            break  # written as RE
        props = {letters[player]: [_move_value(state, move)]}
        if (left := times.get(number)) is not None:
            # The time properties are named by letter (BL, OW): Go's colour 0 is B, 1 is W.
            go_colour = "BW".index(letters[left.colour])
            props.update(time_left_properties(TimeLeft(go_colour, left.seconds, left.periods)))
        node = node.new_child(props)
    return dump_sgf(GameTree(root))


def _setup(start: AnyState) -> dict[str, list[str]]:
    size = start.size
    out: dict[str, list[str]] = {}
    if isinstance(start, amazons.AmazonsState):
        groups = {"AW": start.queens(amazons.WHITE), "AB": start.queens(amazons.BLACK), "AA": start.arrows()}
        out = {prop: [_go_point(p, size) for p in points] for prop, points in groups.items() if points}
        return out or {"AA": [""]}  # an empty board must still override GM[18]'s default start
    if isinstance(start, hex.HexState):
        for prop, player in (("AB", hex.FIRST), ("AW", hex.SECOND)):
            if stones := start.stones(player):
                out[prop] = [hex.format_cell(p, size) for p in stones]
        return out
    for prop, player in (("AB", tanbo.BLACK), ("AW", tanbo.WHITE)):
        if stones := start.stones(player):
            out[prop] = [_go_point(p, size) for p in stones]
    return out


def _go_point(point: int, size: int) -> str:
    row, col = divmod(point, size)
    return encode_point((col, row), size)


def _move_value(state: AnyState, move: Any) -> str:
    if isinstance(state, amazons.AmazonsState):
        return "".join(_go_point(p, state.size) for p in move)
    if isinstance(state, hex.HexState):
        return "swap-pieces" if isinstance(move, hex.Swap) else hex.format_cell(move.point, state.size)
    return _go_point(move.point, state.size)


def _result_text(state: AnyState, letters: tuple[str, str]) -> str:
    assert state.outcome is not None
    winner = state.outcome.winner
    if winner is None:
        return "0"
    suffix = {EndReason.RESIGN: "R", EndReason.TIMEOUT: "T"}.get(state.outcome.reason, "")
    return f"{letters[winner]}+{suffix}"


# ----------------------------------------------------------------------------- reading


def load_game(data: bytes) -> AnyState:
    """The state at the end of the main line of the first game tree in `data`; SgfError if unusable."""
    return read_game(data).state


def read_game(data: bytes, budget: Budget | None = None) -> LoadedGame:
    """The first game tree of `data` replayed; `budget` bounds the whole reading (limits.py)."""
    budget = budget or Budget()
    collection = parse_sgf(data, budget)
    root = collection[0].root
    number = (root.get("GM") or "1").strip()
    if number == "1":
        raise SgfError("this is a Go record (GM[1]): read it with miai.formats.sgf.go.load_go")
    if number not in _KIND_OF_NUMBER:
        known = ", ".join(f"GM[{n}] {k}" for k, n in GAME_NUMBERS.items())
        raise SgfError(f"GM[{number}] is not a game this reader knows ({known})")
    kind = _KIND_OF_NUMBER[number]
    letters = PLAYER_LETTERS[kind]
    nodes = list(root.main_line())
    try:
        state = _START_READERS[kind](root, _size(root, kind), _first_player(root, nodes, letters), budget)
    except InvalidRules as err:
        raise SgfError(f"the start of this {kind} record cannot be played: {err}") from None
    state = _replay(kind, state, nodes[1:], letters, budget)
    state = _apply_result(state, root.get("RE"), letters)
    void = state.outcome is None and root.get_all("RE") == [VOID]  # kept as game information
    info = {
        prop: values
        for prop, values in root.properties.items()
        if prop not in _STRUCTURAL or (void and prop == "RE")
    }
    time_system = read_time_system(root, [])  # TM and OT of another time system stay as text in info
    return LoadedGame(kind, state, info, time_system, _times(nodes, letters))


def _times(nodes: list[Node], letters: tuple[str, str]) -> dict[int, TimeLeft]:
    """The mover's time left after each move (BL/WL, OB/OW in the move's node), by move number."""
    problems: list[str] = []
    times = {}
    for ply, node in enumerate(nodes[1:], start=1):
        for go_colour, left in node_times(node, 2, f"node {ply}", problems).items():
            player = letters.index("BW"[go_colour])
            if node.has(letters[player]):
                times[ply] = TimeLeft(player, left.seconds, left.periods)
    if problems:
        raise SgfError(problems[0])
    return times


def _size(root: Node, kind: str) -> int:
    text = (root.get("SZ") or {"amazons": "10", "hex": "11", "tanbo": "19"}[kind]).strip()
    first, _, second = text.partition(":")
    if not (first.isascii() and first.isdigit() and len(first) <= 3) or (second and second != first):
        raise SgfError(f"SZ[{text}] is not a square board size")
    return int(first)


def _first_player(root: Node, nodes: list[Node], letters: tuple[str, str]) -> int:
    """PL if given, else the colour of the first move, else player 0."""
    value = root.get("PL")
    if value is not None:
        letter = value.strip().upper()[:1]
        if letter not in letters:
            raise SgfError(f"PL[{value}] names neither B nor W")
        return letters.index(letter)
    for node in nodes[1:]:
        for player, letter in enumerate(letters):
            if node.has(letter):
                return player
    return 0


def _points(root: Node, prop: str, size: int, budget: Budget) -> list[int]:
    return [row * size + col for col, row in decode_point_list(root.get_all(prop), size, budget)]


def _amazons_start(root: Node, size: int, first: int, budget: Budget) -> AnyState:
    if not any(root.has(prop) for prop in ("AB", "AW", "AA", "AE")):
        if size != amazons.SIZE:
            raise SgfError(f"an Amazons record on {size}x{size} needs its start position (AB/AW)")
        # GM[18]'s default start puts Black's queens at the bottom: AB[dj][gj][ag][jg] AW[da][ga][ad][jd].
        white, black = (
            [amazons.parse_square(s) for s in squares]
            for squares in (("d10", "g10", "a7", "j7"), ("d1", "g1", "a4", "j4"))
        )
        return amazons.new_game(size, white, black, (), first)
    return amazons.new_game(
        size,
        _points(root, "AW", size, budget),
        _points(root, "AB", size, budget),
        _points(root, "AA", size, budget),
        first,
    )


def _hex_start(root: Node, size: int, first: int, budget: Budget) -> AnyState:
    setup = {}
    for prop, player in (("AB", hex.FIRST), ("AW", hex.SECOND)):
        for value in dict.fromkeys(root.get_all(prop)):  # a cell named twice is read once
            budget.spend(limits.POINT, "its point lists")
            try:
                setup[hex.parse_cell(value, size)] = player
            except ValueError as err:
                raise SgfError(f"{prop}[{value}]: {err}") from None
    # Without RU, or with another program's wording, read the game under `swap`: it allows every move
    # sequence the other rules allow, plus the swap itself.
    opening = (root.get("RU") or "").strip().lower()
    if opening not in {o.value for o in hex.Opening}:
        opening = hex.Opening.SWAP.value
    return hex.new_game(size, opening, setup, first)


def _tanbo_start(root: Node, size: int, first: int, budget: Budget) -> AnyState:
    cap_text = (root.get(TANBO_CAP) or str(tanbo.CAP)).strip()
    if not (cap_text.isascii() and cap_text.isdigit() and len(cap_text) <= 9):  # int() refuses 5,000 digits
        raise SgfError(f"{TANBO_CAP}[{cap_text}] is not a ply count")
    setup = None
    if root.has("AB") or root.has("AW"):
        setup = dict.fromkeys(_points(root, "AB", size, budget), tanbo.BLACK)
        setup.update(dict.fromkeys(_points(root, "AW", size, budget), tanbo.WHITE))
    return tanbo.new_game(size, setup, first, int(cap_text))


_START_READERS: dict[str, Callable[[Node, int, int, Budget], AnyState]] = {
    "amazons": _amazons_start,
    "hex": _hex_start,
    "tanbo": _tanbo_start,
}


def _replay(
    kind: str, state: AnyState, nodes: list[Node], letters: tuple[str, str], budget: Budget
) -> AnyState:
    for number, node in enumerate(nodes, start=1):
        if any(node.has(prop) for prop in ("AB", "AW", "AE", "AA")):
            raise SgfError(f"node {number} changes the position with setup properties; {kind} records do not")
        present = [player for player, letter in enumerate(letters) if node.has(letter)]
        if not present:
            continue  # a node with only comments or markup
        if len(present) == 2:
            raise SgfError(f"node {number} holds both a B and a W move")
        player = present[0]
        budget.position(state.size)
        value = node.get(letters[player]) or ""
        if state.is_over:
            raise SgfError(f"node {number} ({letters[player]}[{value}]) comes after the end of the game")
        if player != state.to_move:
            expected = letters[state.to_move]
            raise SgfError(
                f"node {number}: {expected} is to move, but the record has {letters[player]}[{value}]"
            )
        try:
            move = _read_move(kind, state, value)
            state = state.leave(player, move) if isinstance(move, Resign | Timeout) else state.play(move)
        except ValueError as err:
            raise SgfError(f"node {number} ({letters[player]}[{value}]): {err}") from None
    return state


def _read_move(kind: str, state: AnyState, value: str) -> Any:
    text = value.strip()
    size = state.size
    if kind == "amazons":
        if len(text) != 6:
            raise SgfError(f"an Amazons move is three points (from, to, arrow) such as djddgd, not [{value}]")
        (fc, fr), (tc, tr), (ac, ar) = (decode_point(text[i : i + 2], size) for i in (0, 2, 4))
        return amazons.QueenMove(fr * size + fc, tr * size + tc, ar * size + ac)
    if kind == "hex":
        word = text.lower()
        if word == "swap-sides":
            raise SgfError("swap-sides (exchanging colours) is not supported; Miai records swap-pieces")
        if word == "forfeit":
            return TIMEOUT
        return hex.parse_move(word, size)  # a cell, swap-pieces or resign
    col, row = decode_point(text, size)
    return Place(row * size + col)


def _apply_result(state: AnyState, result: str | None, letters: tuple[str, str]) -> AnyState:
    """RE[B+R] / RE[W+T] end a game the moves leave open; any other result is checked by the replay."""
    if result is None:
        return state
    text = result.strip().upper()
    letter, plus, how = text.partition("+")
    if not plus or letter not in letters or how[:1] not in ("R", "T"):
        return state
    winner = letters.index(letter)
    reason = EndReason.RESIGN if how[:1] == "R" else EndReason.TIMEOUT
    if state.outcome is not None:
        if state.outcome.winner == winner and state.outcome.reason is reason:
            return state
        raise SgfError(f"RE[{result}] does not match the moves, which already end the game")
    return state.leave(1 - winner, RESIGN if reason is EndReason.RESIGN else TIMEOUT)
