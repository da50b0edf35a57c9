"""Playing strength: levels 1..10 of Miai's own engine, and external GTP engines as extra levels.

Level 1 is a gentle beginner, in the spirit of Dgo's LV1: a few dozen playouts and many deliberately
random moves. Each level up doubles or so the playouts and errs less; level 10 searches for the whole time
budget (`seconds`, default 5 s a move) on every core (MIAI_SEARCH_THREADS threads, by default one per
core) and is the strongest this machine allows.

External engines
----------------
GNU Go is offered as level 11 (name "gnugo", `--level 10`) whenever it is installed. Operators add other
GTP engines (KataGo, Leela Zero, Pachi, ...) with the environment variable `MIAI_EXTERNAL_ENGINES`, either
as JSON text or as the path of a TOML file:

    MIAI_EXTERNAL_ENGINES='[{"name": "katago", "command": ["katago", "gtp", "-config", "gtp.cfg"],
                             "level": 12}]'

    # engines.toml, with MIAI_EXTERNAL_ENGINES=/etc/miai/engines.toml
    [[engine]]
    name = "katago"
    command = ["katago", "gtp", "-config", "/etc/katago/gtp.cfg", "-model", "/srv/katago/model.bin.gz"]
    level = 12

Each record has a `name` (letters, digits, '-', '_', '.'; chosen with level="katago"), a `command` (a list
of arguments, or one string split like a shell would) and an optional `level` (an integer above 10, chosen
with level=12). A configured engine named "gnugo" or with level 11 replaces the built-in GNU Go entry.
"""

from __future__ import annotations

import json
import math
import os
import re
import shlex
import tomllib
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from miai.core.go import GoState, Move
from miai.engines.go_player import GoPlayer, ResignPolicy, Style
from miai.engines.gtp_player import GtpPlayer
from miai.formats.gtp.gnugo import find_gnugo
from miai.formats.gtp.go_players import MoveGenerator

TOP_LEVEL = 10
DEFAULT_SECONDS = 5.0  # level 10's time per move when no budget is given
ENV_VAR = "MIAI_EXTERNAL_ENGINES"
THREADS_VAR = "MIAI_SEARCH_THREADS"
GNUGO_LEVEL = 11

# Levels 1..9: (playouts, time cap in seconds, temperature, share of random moves).
_TABLE: dict[int, tuple[int, float, float, float]] = {
    1: (24, 2.0, 1.0, 0.30),
    2: (48, 2.0, 0.8, 0.20),
    3: (100, 2.0, 0.6, 0.12),
    4: (200, 3.0, 0.4, 0.06),
    5: (400, 3.0, 0.25, 0.03),
    6: (1_000, 4.0, 0.0, 0.0),
    7: (2_500, 6.0, 0.0, 0.0),
    8: (6_000, 8.0, 0.0, 0.0),
    9: (15_000, 10.0, 0.0, 0.0),
}


def style(level: int, seconds: float | None = None) -> Style:
    """The search budget and error rate of an internal level; `seconds` caps levels 1..9 and sets 10's."""
    if isinstance(level, bool) or not isinstance(level, int) or not 1 <= level <= TOP_LEVEL:
        raise ValueError(f"Miai's own levels are 1..{TOP_LEVEL}, not {level!r}")
    if seconds is not None and not (seconds > 0 and seconds != float("inf")):
        raise ValueError(f"the time per move must be a positive number of seconds, not {seconds!r}")
    if level == TOP_LEVEL:
        budget = seconds if seconds is not None else DEFAULT_SECONDS
        return Style(None, budget, capacity=2_000_000, threads=search_threads(), dynamic_komi=True)
    playouts, cap, temperature, blunders = _TABLE[level]
    budget = cap if seconds is None else min(cap, seconds)
    capacity = 200_000 if level <= 6 else 1_000_000
    return Style(playouts, budget, temperature, blunders, capacity)


def search_threads(environ: Mapping[str, str] | None = None) -> int:
    """Threads of a level-10 search: MIAI_SEARCH_THREADS, or one per core (at most 8)."""
    environ = os.environ if environ is None else environ
    text = environ.get(THREADS_VAR, "").strip()
    if not text:
        return max(1, min(8, os.cpu_count() or 1))
    if not text.isdigit() or not 1 <= int(text) <= 64:
        raise ValueError(f"{THREADS_VAR} must be a whole number of threads from 1 to 64, not {text!r}")
    return int(text)


# ----------------------------------------------------------------- external engines


@dataclass(frozen=True)
class ExternalEngine:
    name: str
    command: tuple[str, ...]
    level: int | None = None


_NAME = re.compile(r"[A-Za-z0-9_.-]+")


def _engine(record: object, where: str) -> ExternalEngine:
    if not isinstance(record, Mapping):
        raise ValueError(f"{where}: each engine must be a table/object with name, command and level")
    unknown = set(record) - {"name", "command", "level"}
    if unknown:
        raise ValueError(f"{where}: unknown field(s) {', '.join(sorted(map(str, unknown)))}")
    name = record.get("name")
    if not isinstance(name, str) or not _NAME.fullmatch(name):
        raise ValueError(f"{where}: 'name' must be letters, digits, '-', '_' or '.', not {name!r}")
    command = record.get("command")
    if isinstance(command, str):
        try:
            command = shlex.split(command)
        except ValueError as exc:
            raise ValueError(f"{where}: cannot split the command of {name!r}: {exc}") from None
    if not isinstance(command, list) or not command or not all(isinstance(a, str) and a for a in command):
        raise ValueError(f"{where}: 'command' of {name!r} must be a non-empty list of strings")
    level = record.get("level")
    if level is not None and (isinstance(level, bool) or not isinstance(level, int) or level <= TOP_LEVEL):
        raise ValueError(f"{where}: 'level' of {name!r} must be an integer above {TOP_LEVEL}, not {level!r}")
    return ExternalEngine(name, tuple(command), level)


def parse_engines(text: str) -> list[ExternalEngine]:
    """Engines from the value of MIAI_EXTERNAL_ENGINES: JSON text, or the path of a TOML file."""
    text = text.strip()
    if not text:
        return []
    if text.startswith(("[", "{")):
        where = ENV_VAR
        try:
            data: Any = json.loads(text)
        except json.JSONDecodeError as exc:
            raise ValueError(f"{ENV_VAR} is not valid JSON: {exc}") from None
        records = data if isinstance(data, list) else None
    else:
        where = text
        try:
            data = tomllib.loads(Path(text).read_text(encoding="utf-8"))
        except OSError as exc:
            raise ValueError(f"{ENV_VAR}: cannot read engine file {text}: {exc.strerror or exc}") from None
        except (tomllib.TOMLDecodeError, UnicodeDecodeError) as exc:
            raise ValueError(f"{ENV_VAR}: {text} is not valid TOML: {exc}") from None
        records = data.get("engine")
    if not isinstance(records, list):
        raise ValueError(f"{where}: expected a list of engines ([...] in JSON, [[engine]] tables in TOML)")
    engines = [_engine(record, f"{where}, engine {i + 1}") for i, record in enumerate(records)]
    for attribute in ("name", "level"):
        values = [getattr(e, attribute) for e in engines if getattr(e, attribute) is not None]
        duplicates = sorted({str(v) for v in values if values.count(v) > 1})
        if duplicates:
            raise ValueError(f"{where}: {attribute} used twice: {', '.join(duplicates)}")
    return engines


def external_engines(environ: Mapping[str, str] | None = None) -> list[ExternalEngine]:
    """The configured engines, plus GNU Go as level 11 when it is installed and not configured otherwise."""
    environ = os.environ if environ is None else environ
    engines = parse_engines(environ.get(ENV_VAR, ""))
    if not any(e.name == "gnugo" or e.level == GNUGO_LEVEL for e in engines):
        gnugo = find_gnugo()
        if gnugo is not None:
            engines.append(ExternalEngine("gnugo", (gnugo, "--mode", "gtp", "--level", "10"), GNUGO_LEVEL))
    return engines


def find_engine(level: int | str, environ: Mapping[str, str] | None = None) -> ExternalEngine:
    engines = external_engines(environ)
    for engine in engines:
        if level in (engine.name, engine.level):
            return engine
    known = ", ".join(f"{e.name}" + (f" (level {e.level})" if e.level else "") for e in engines) or "none"
    raise ValueError(f"no external engine {level!r} is configured (known: {known}; see {ENV_VAR})")


# ----------------------------------------------------------------- choosing moves


def make_move_generator(
    level: int | str, seconds: float | None = None, seed: int = 0, *, resign: ResignPolicy | None = None
) -> MoveGenerator:
    """A Go move generator `(state, colour, seconds) -> Move` for a level.

    1..10 are Miai's own engine; a higher number or a name picks an external engine (which falls back on
    level 10 for a move Miai's rules refuse). `seconds` is the default time per move; the generator's own
    `seconds` argument, when given, can only shorten it. `resign` tunes when Miai's engine gives up (by
    default: below 5% for three searches in a row, never with more than two colours; the small searches of
    the lowest levels never resign). Keep one generator per game: it reuses its search tree from move to
    move and counts its hopeless searches.
    """
    if isinstance(level, int) and not isinstance(level, bool) and 1 <= level <= TOP_LEVEL:
        return GoPlayer(style(level, seconds), seed=seed, resign=resign or ResignPolicy())
    if isinstance(level, str) and level.strip().isdigit():
        return make_move_generator(int(level.strip()), seconds, seed, resign=resign)
    if isinstance(level, bool) or not isinstance(level, int | str):
        raise ValueError(f"a level is 1..{TOP_LEVEL} or an external engine's name or level, not {level!r}")
    engine = find_engine(level)
    fallback = GoPlayer(style(TOP_LEVEL, seconds or 2.0), seed=seed)
    player = GtpPlayer(engine.command, engine.name, fallback=fallback)
    return player if seconds is None else DefaultTime(player, seconds)


class DefaultTime:
    """An external engine with a default time per move that a caller's own time can only shorten;
    `close()` ends the engine's process."""

    def __init__(self, player: GtpPlayer, seconds: float) -> None:
        self.player = player
        self.seconds = seconds

    def __call__(self, state: GoState, colour: int, given: float | None) -> Move:
        return self.player(state, colour, self.seconds if given is None else min(given, self.seconds))

    def close(self) -> None:
        self.player.close()


# Generic games: playouts per level (level 10 searches for the time budget instead).
_GENERIC_PLAYOUTS = {1: 20, 2: 40, 3: 80, 4: 160, 5: 320, 6: 640, 7: 1_280, 8: 2_560, 9: 5_120}
_GENERIC_BLUNDERS = {1: 0.3, 2: 0.2, 3: 0.12, 4: 0.06, 5: 0.03}


@dataclass(frozen=True)
class GameBudget:
    """What a level of the games other than Go may spend on a move."""

    blunders: float  # share of deliberate random moves
    seconds: float  # think time
    playouts: int | None  # None: search for the whole time (the top level)


def game_budget(level: int, seconds: float | None) -> GameBudget:
    """Levels 1..9 of Amazons, Hex and Tanbo: a playout count within the Go table's time cap (Amazons
    counts its evaluated simulations in a table of its own instead); level 10 searches for the given time
    (or the default)."""
    check_level(level)
    if seconds is not None and not 0 < seconds < math.inf:  # NaN, infinite or none: the level's own
        seconds = None
    if level == TOP_LEVEL:
        return GameBudget(0.0, seconds or DEFAULT_SECONDS, None)
    cap = _TABLE[level][1]
    budget = cap if seconds is None else min(cap, seconds)
    return GameBudget(_GENERIC_BLUNDERS.get(level, 0.0), budget, _GENERIC_PLAYOUTS[level])


def check_level(level: object) -> None:
    """Levels of the games other than Go are whole numbers 1..10."""
    if isinstance(level, bool) or not isinstance(level, int) or not 1 <= level <= TOP_LEVEL:
        raise ValueError(f"levels for this game are 1..{TOP_LEVEL}, not {level!r}")
