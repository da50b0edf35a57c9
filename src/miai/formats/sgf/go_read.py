"""Reading Go records: the root decides board, colours, seats and rules; go_replay plays the main line.

Problems with moves become notes in `GoRecord.problems` (see go_replay). Only input that describes no
playable game (no tree, a non-square or oversized board, a game other than Go, rules that cannot play
it) raises `SgfError`.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace

from miai.core.errors import InvalidRules
from miai.core.go.game import GoState
from miai.core.go.presets import PRESETS, preset
from miai.core.go.rules import MAX_COLOURS, MAX_SIZE, MIN_COLOURS, SMALLEST_BOARD, KoRule, Rules
from miai.formats.sgf.errors import SgfError
from miai.formats.sgf.go_nodes import (
    EXT_COLOURS,
    EXT_PLAYERS,
    EXT_RULES,
    EXT_SEATS,
    GAME_INFO,
    colour_name,
    node_events,
)
from miai.formats.sgf.go_replay import Replay, flatten_main_line
from miai.formats.sgf.go_rules import decode_rules, rules_key_of
from miai.formats.sgf.grammar import parse_sgf
from miai.formats.sgf.limits import Budget
from miai.formats.sgf.times import TimeLeft, TimeSystem, node_times, read_time_system
from miai.formats.sgf.tree import Collection, GameTree, Node
from miai.formats.sgf.values import decode_compose, decode_number, decode_real


@dataclass
class GoRecord:
    """A Go game read from SGF: the position, the rules it was replayed under, and what was odd about it."""

    state: GoState  # position at the end of the main line, or at the requested move
    rules: Rules
    rules_key: str | None  # Miai preset key named by RU, or None
    info: dict[str, str]  # root game-info properties (PB, PW, DT, RE, KM, HA, ...) as text
    problems: list[str] = field(default_factory=list)  # human-readable notes, in the order found
    moves_played: int = 0  # moves and passes applied (skipped moves not counted)
    time_system: TimeSystem | None = None  # the clock TM and OT describe (Fischer, absolute or byo-yomi)
    times: dict[int, TimeLeft] = field(default_factory=dict)  # main-line node index -> the mover's time left
    players: dict[int, list[str]] = field(default_factory=dict)  # colour -> names by seat (MU, else PB/PW)


def load_go(
    source: bytes | Collection | GameTree,
    rules: Rules | None = None,
    upto: int | str | None = None,
    *,
    budget: Budget | None = None,
) -> GoRecord:
    """Replay the main line of the (first) game of `source`.

    `rules` overrides what the record says. `upto` follows GNU Go's `loadsgf FILE [MOVE|VERTEX]`: a
    number N stops before move N (B/W/MM moves and passes of the main line, counted from 1), a vertex
    such as "C3" stops before the first move there; either way the colour of that move is to move.
    `budget` bounds the work (limits.py): pass the one the tree was parsed with, so the whole reading
    of a record shares it; default: a fresh `Budget()`.
    """
    problems: list[str] = []
    budget = budget or Budget()
    tree = _first_tree(source, problems, budget)
    root = tree.root
    game = root.get("GM")
    if game is not None and game.strip() not in ("", "1"):
        raise SgfError(f"GM[{game}] is not a Go record (Go is GM[1])")
    size = _board_size(root)
    colours = _colours(root)
    seats = _seats(root, colours, problems)
    handicap = _optional_number(root, "HA", problems) or 0
    ru = root.get("RU")
    rules_key = rules_key_of(ru) if ru is not None else None
    chosen = _choose_rules(root, size, colours, rules, rules_key, handicap, problems)
    items, stop = flatten_main_line(tree, size, colours, upto, problems, budget)
    replay = Replay(size, colours, seats, chosen, handicap, problems, budget)
    state = replay.run(items, stop)
    time_system = read_time_system(root, problems)
    times = _times(tree, size, colours, problems)
    players = _players(root, colours, problems)
    return GoRecord(
        state, state.rules, rules_key, _info(root), problems, replay.moves_played, time_system, times, players
    )


# ---------------------------------------------------------------- the root


def _first_tree(source: bytes | Collection | GameTree, problems: list[str], budget: Budget) -> GameTree:
    if isinstance(source, GameTree):
        return source
    if isinstance(source, bytes | bytearray):
        source = parse_sgf(bytes(source), budget)
    if not isinstance(source, Collection):
        raise TypeError(f"load_go reads bytes, a Collection or a GameTree, not {type(source).__name__}")
    problems.extend(f"SGF {warning}" for warning in source.warnings)
    if not source.trees:
        raise SgfError("the collection holds no game tree")
    if len(source.trees) > 1:
        problems.append(f"the file holds {len(source.trees)} game trees; only the first is loaded")
    return source.trees[0]


def _board_size(root: Node) -> int:
    value = root.get("SZ")
    if value is None or not value.strip():
        return 19
    columns, colon, rows = value.partition(":")
    try:
        size = decode_number(columns)
        if colon and decode_number(rows) != size:
            raise SgfError(f"SZ[{value}]: Miai plays square boards only")
    except SgfError as err:
        raise SgfError(f"SZ[{value}]: {err.message}") from None
    if not SMALLEST_BOARD <= size <= MAX_SIZE:
        raise SgfError(f"SZ[{value}]: Miai plays boards of {SMALLEST_BOARD} to {MAX_SIZE} lines")
    return size


def _colours(root: Node) -> int:
    value = root.get(EXT_COLOURS)
    if value is None:
        return 2
    colours = decode_number(value)
    if not MIN_COLOURS <= colours <= MAX_COLOURS:
        raise SgfError(f"{EXT_COLOURS}[{value}]: a game has {MIN_COLOURS} to {MAX_COLOURS} colours")
    return colours


def _seats(root: Node, colours: int, problems: list[str]) -> tuple[int, ...]:
    values = root.get_all(EXT_SEATS)
    if not values:
        return (1,) * colours
    try:
        seats = tuple(decode_number(value) for value in values)
    except SgfError as err:
        problems.append(f"{EXT_SEATS}: {err.message}; one player per team assumed")
        return (1,) * colours
    if len(seats) != colours or min(seats) < 1:
        problems.append(f"{EXT_SEATS} needs a player count of at least 1 for each of the {colours} teams; "
                        "one player per team assumed")
        return (1,) * colours
    return seats


def _optional_number(root: Node, prop: str, problems: list[str]) -> int | None:
    value = root.get(prop)
    if value is None or not value.strip():
        return None
    try:
        return decode_number(value)
    except SgfError as err:
        problems.append(f"{prop}: {err.message}; ignored")
        return None


def _komi(root: Node, problems: list[str]) -> float | None:
    value = root.get("KM")
    if value is None or not value.strip():
        return None
    try:
        return decode_real(value)
    except SgfError as err:
        problems.append(f"KM: {err.message}; komi 0 used")
        return None


def _choose_rules(
    root: Node,
    size: int,
    colours: int,
    given: Rules | None,
    rules_key: str | None,
    handicap: int,
    problems: list[str],
) -> Rules:
    """The rules argument, else MR (Miai's exact rules), else the RU preset, else GNU Go-like defaults."""
    komi = _komi(root, problems)
    if given is not None:
        chosen = given
    elif root.has(EXT_RULES):
        chosen = decode_rules(root.get_all(EXT_RULES), problems)
        if komi is not None and komi != chosen.komi_of(1):
            problems.append(f"KM[{root.get('KM')}] differs from White's komi in MR; MR is used")
    elif rules_key is not None:
        chosen = _preset_rules(rules_key, size, colours, handicap, komi, problems)
    else:
        chosen = _default_rules(colours, komi or 0.0)
    if size not in chosen.allowed_sizes:
        problems.append(_outside_sizes(size))
        chosen = replace(chosen, allowed_sizes=(size,))
    return chosen


def _outside_sizes(size: int) -> str:
    return f"board size {size} is outside the rules' sizes; allowed for this record"


def _default_rules(colours: int, komi: float) -> Rules:
    """GNU Go-like: simple ko, and komi for White. More than two colours need positional superko."""
    if colours == 2:
        return Rules(ko=KoRule.SIMPLE, komi=(0.0, komi))
    return Rules(ko=KoRule.POSITIONAL, komi=(0.0, komi, *(0.0,) * (colours - 2)))


def _preset_rules(
    key: str, size: int, colours: int, handicap: int, komi: float | None, problems: list[str]
) -> Rules:
    stones = handicap if handicap >= 2 else 0
    try:
        return preset(key, size, colours, stones, komi)
    except InvalidRules:
        pass
    chosen = PRESETS[key]
    if size not in chosen.base.allowed_sizes:
        problems.append(_outside_sizes(size))
        chosen = replace(chosen, base=replace(chosen.base, allowed_sizes=(size,)))
    try:
        return chosen.rules(size, colours, stones, komi)
    except InvalidRules as err:
        problems.append(f"RU[{key}] cannot be used here ({err}); default rules used")
        return _default_rules(colours, komi or 0.0)


def _times(tree: GameTree, size: int, colours: int, problems: list[str]) -> dict[int, TimeLeft]:
    """The time left recorded in each node of the main line: the mover's, when a node has several."""
    out: dict[int, TimeLeft] = {}
    for index, node in enumerate(tree.main_line()):
        found = node_times(node, colours, f"node {index}", problems)
        if not found:
            continue
        movers = [event.colour for event in node_events(node, size, colours)]
        colour = next((c for c in movers if c in found), min(found))
        if len(found) > 1:
            others = ", ".join(colour_name(c) for c in found if c != colour)
            problems.append(f"node {index}: time left of {others} besides {colour_name(colour)}'s; "
                            f"only {colour_name(colour)}'s is kept")
        out[index] = found[colour]
    return out


def _info(root: Node) -> dict[str, str]:
    return {prop: ", ".join(values) for prop, values in root.properties.items() if prop in GAME_INFO}


def _players(root: Node, colours: int, problems: list[str]) -> dict[int, list[str]]:
    """Every player by colour from MU (`colour:name`, in seat order); without MU, PB and PW, one name each."""
    players: dict[int, list[str]] = {}
    for value in root.get_all(EXT_PLAYERS):
        try:
            colour_text, name = decode_compose(value)
            colour = decode_number(colour_text)
        except SgfError as err:
            problems.append(f"{EXT_PLAYERS}: {err.message}; ignored")
            continue
        if not 0 <= colour < colours:
            problems.append(f"{EXT_PLAYERS}[{value}]: the game has no colour {colour}; ignored")
            continue
        players.setdefault(colour, []).append(name)
    if players:
        return dict(sorted(players.items()))
    named = ((colour, root.get(prop)) for colour, prop in ((0, "PB"), (1, "PW")))
    return {colour: [name] for colour, name in named if name}
