"""Which challenges a bot accepts: Go only, and the sizes, rules, clocks and rating its owner chose.

A refusal is a short sentence: it is sent as the decline reason, so the challenger reads it.
"""

from __future__ import annotations

import json
import math
from collections.abc import Mapping
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

CLOCKS = frozenset({"none", "fischer", "byoyomi"})
RATED_CHOICES = frozenset({"yes", "no", "any"})
MAX_POLICY_BYTES = 64 * 1024


class PolicyError(ValueError):
    """A policy file or flag that makes no sense: one line saying which."""


@dataclass(frozen=True)
class Policy:
    sizes: frozenset[int] = frozenset({9, 13, 19})
    rules: frozenset[str] = frozenset()  # preset keys; empty: any
    clocks: frozenset[str] = CLOCKS
    min_main_time: float = 0.0  # seconds; a clock with less main time is declined
    max_main_time: float = math.inf
    rated: str = "any"  # "yes": rated games only, "no": unrated only
    max_games: int = 4  # games at once; more challenges are declined while busy

    def refusal(self, kind: str, options: Mapping[str, Any], busy: int) -> str | None:
        """Why this challenge is declined (None: accepted); `busy`: the games being played now.

        The options come from the server: one of a type or range the bot does not understand declines the
        challenge (saying which option) rather than raising."""
        try:
            return self._refusal(kind, options, busy)
        except _Unreadable as err:
            return f"this bot cannot read the challenge's {err} option"

    def _refusal(self, kind: str, options: Mapping[str, Any], busy: int) -> str | None:
        if kind != "go":
            return f"this bot plays Go only, not {_shown(kind)}"
        if _whole(options, "teams", 2) != 2 or _whole(options, "players_per_team", 1) != 1:
            return "this bot plays two-player Go only"
        if busy >= self.max_games:
            return f"this bot is busy ({busy} games at once)"
        size = _whole(options, "size", None)
        if size not in self.sizes:
            allowed = ", ".join(f"{s}x{s}" for s in sorted(self.sizes))
            return f"this bot plays on {allowed}, not {size}x{size}"
        preset = _word(options, "preset", "")
        if self.rules and preset not in self.rules:
            return f"this bot plays the rules {', '.join(sorted(self.rules))}, not {preset or 'custom'}"
        if _whole(options, "handicap", 0):  # GTP handicap placement is not driven yet
            return "this bot plays even games only (no handicap)"
        clock = _word(options, "clock", "none")
        if clock not in self.clocks:
            return f"this bot plays with the clocks {', '.join(sorted(self.clocks))}, not {clock}"
        main = _seconds_option(options, "main_time")
        if clock != "none" and not self.min_main_time <= main <= self.max_main_time:
            return f"this bot plays with a main time of {self.min_main_time:g}..{self.max_main_time:g} s"
        rated = options.get("rated")
        if rated is not None and not isinstance(rated, bool):
            raise _Unreadable("rated")
        if self.rated == "yes" and not rated:
            return "this bot plays rated games only"
        if self.rated == "no" and rated:
            return "this bot plays unrated games only"
        return None


class _Unreadable(ValueError):
    """A challenge option of a type or range the server never sends: its name."""


MAX_OPTION = 10**9  # sizes, counts and seconds the server sends are far smaller


def _whole(options: Mapping[str, Any], name: str, default: int | None) -> int | None:
    value = options.get(name)
    if value is None:
        return default
    if isinstance(value, bool) or not isinstance(value, int) or not -MAX_OPTION <= value <= MAX_OPTION:
        raise _Unreadable(name)
    return value


def _word(options: Mapping[str, Any], name: str, default: str) -> str:
    value = options.get(name)
    if value is None or value == "":
        return default
    if not isinstance(value, str) or len(value) > 32 or not value.isprintable() or not value.isascii():
        raise _Unreadable(name)
    return value


def _seconds_option(options: Mapping[str, Any], name: str) -> float:
    value = options.get(name)
    if value is None:
        return 0.0
    if isinstance(value, bool) or not isinstance(value, int | float):
        raise _Unreadable(name)
    if isinstance(value, int) and not 0 <= value <= MAX_OPTION:  # float() of a huge int overflows
        raise _Unreadable(name)
    number = float(value)
    if not math.isfinite(number) or not 0 <= number <= MAX_OPTION:
        raise _Unreadable(name)
    return number


def _shown(kind: str) -> str:
    """The challenge's kind as the decline reason may quote it."""
    return kind if 0 < len(kind) <= 32 and kind.isprintable() and kind.isascii() else "this kind"


def _int_set(value: Any, what: str) -> frozenset[int]:
    items = value.split(",") if isinstance(value, str) else value
    if not isinstance(items, list | tuple) or not items:
        raise PolicyError(f"{what}: a list of numbers")
    try:
        numbers = frozenset(int(str(item).strip()) for item in items)
    except ValueError:
        raise PolicyError(f"{what}: a list of numbers") from None
    if not all(2 <= n <= 25 for n in numbers):
        raise PolicyError(f"{what}: sizes are 2..25")
    return numbers


def _word_set(value: Any, what: str, allowed: frozenset[str] | None = None) -> frozenset[str]:
    items = value.split(",") if isinstance(value, str) else value
    if not isinstance(items, list | tuple) or not all(isinstance(i, str) for i in items):
        raise PolicyError(f"{what}: a list of names")
    words = frozenset(i.strip() for i in items if i.strip())
    if allowed is not None and not words <= allowed:
        raise PolicyError(f"{what}: each one of {', '.join(sorted(allowed))}")
    if any(len(w) > 32 or not w.isprintable() for w in words):
        raise PolicyError(f"{what}: short printable names")
    return words


def _seconds(value: Any, what: str) -> float:
    if isinstance(value, bool) or not isinstance(value, int | float | str):
        raise PolicyError(f"{what}: a number of seconds")
    try:
        number = float(value)
    except ValueError:
        raise PolicyError(f"{what}: a number of seconds") from None
    if math.isnan(number) or number < 0:
        raise PolicyError(f"{what}: a number of seconds, 0 or more")
    return number


def policy_from(settings: Mapping[str, Any]) -> Policy:
    """A policy from a mapping (a policy file, or the command-line flags); unknown keys are refused."""
    known = {"sizes", "rules", "clocks", "min_main_time", "max_main_time", "rated", "max_games"}
    unknown = sorted(set(settings) - known)
    if unknown:
        raise PolicyError(f"unknown policy option {unknown[0]!r} (known: {', '.join(sorted(known))})")
    values: dict[str, Any] = {}
    if settings.get("sizes") is not None:
        values["sizes"] = _int_set(settings["sizes"], "sizes")
    if settings.get("rules") is not None:
        values["rules"] = _word_set(settings["rules"], "rules")
    if settings.get("clocks") is not None:
        values["clocks"] = _word_set(settings["clocks"], "clocks", CLOCKS)
    for name in ("min_main_time", "max_main_time"):
        if settings.get(name) is not None:
            values[name] = _seconds(settings[name], name)
    rated = settings.get("rated")
    if rated is not None:
        if rated not in RATED_CHOICES:
            raise PolicyError("rated: yes, no or any")
        values["rated"] = rated
    games = settings.get("max_games")
    if games is not None:
        if isinstance(games, bool) or not isinstance(games, int) or not 1 <= games <= 64:
            raise PolicyError("max_games: a whole number 1..64")
        values["max_games"] = games
    policy = replace(Policy(), **values)
    if policy.min_main_time > policy.max_main_time:
        raise PolicyError("min_main_time is more than max_main_time")
    return policy


def read_policy_file(path: Path) -> dict[str, Any]:
    """The JSON object of a policy file; PolicyError for a missing, huge or broken file."""
    try:
        with path.open("rb") as file:
            data = file.read(MAX_POLICY_BYTES + 1)
    except OSError as err:
        raise PolicyError(f"cannot read the policy file: {err.strerror or err}") from None
    if len(data) > MAX_POLICY_BYTES:
        raise PolicyError(f"the policy file is larger than {MAX_POLICY_BYTES} bytes")
    try:
        loaded = json.loads(data.decode("utf-8"))
    except (UnicodeDecodeError, ValueError) as err:
        raise PolicyError(f"the policy file is not JSON: {err}") from None
    if not isinstance(loaded, dict):
        raise PolicyError("the policy file must hold a JSON object")
    return loaded
