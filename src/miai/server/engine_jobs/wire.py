"""Engine jobs as they travel on Redis: the key names under a prefix, and the fields of one job.

Anything may be written into a stream by hand, so `read_job` trusts nothing: a job is a flat map of short
text fields, and whatever does not parse raises `BadJob` (the worker acknowledges it, logs it and goes on).
"""

from __future__ import annotations

import json
import math
from dataclasses import dataclass
from typing import Any

GROUP = "workers"
MAX_ID = 2**62  # game ids, versions and user ids are database integers
MAX_FIELD = 1_000_000  # characters of one field (a 25x25 game record is far below)
MAX_LEVEL_TEXT = 64


class BadJob(ValueError):
    """A stream entry that is not a job this version of Miai understands."""


@dataclass(frozen=True)
class Keys:
    """Redis names of the engine queue for one `redis_prefix`. Everything sits under `PREFIX!engine:`, out of
    the realtime pattern `PREFIX:*` that the hub subscribes to."""

    prefix: str

    @property
    def stream(self) -> str:
        """Computer moves."""
        return f"{self.prefix}!engine:jobs"

    @property
    def urgent(self) -> str:
        """Judgements and area estimates: someone waits for the answer, so workers read this stream first."""
        return f"{self.prefix}!engine:urgent"

    @property
    def reviews(self) -> str:
        """Review parts, each put here by the worker about to take it (`turns.TAKE`), so that a worker that
        dies in a part has it taken over like a move."""
        return f"{self.prefix}!engine:reviews"

    @property
    def streams(self) -> tuple[str, str, str]:
        """Every stream, in the order workers read them."""
        return (self.urgent, self.stream, self.reviews)

    @property
    def review_turns(self) -> str:
        """The users whose review parts wait, in turn order (`turns.py`)."""
        return f"{self.prefix}!engine:review-turns"

    def review_queue(self, user: int | str = "") -> str:
        """A user's review parts waiting (a list of jobs as JSON); with no user, the names' common start."""
        return f"{self.prefix}!engine:review-queue:{user}"

    @property
    def game_over(self) -> str:
        """The channel on which every worker hears that a game ended (and releases its players)."""
        return f"{self.prefix}!engine:game_over"

    def dedupe(self, game: int, version: int) -> str:
        return f"{self.prefix}!engine:move:{game}:{version}"

    def review_dedupe(self, review: int) -> str:
        """The marker of a review the sweep submitted again (one resubmission per stall limit)."""
        return f"{self.prefix}!engine:review:{review}"

    def memo(self, game: int) -> str:
        """Hash of one game's players' memos: seat (user id) -> JSON."""
        return f"{self.prefix}!engine:memo:{game}"

    def reply(self, token: str) -> str:
        return f"{self.prefix}!engine:reply:{token}"


@dataclass(frozen=True)
class MoveJob:
    """A computer (`seat`, a user id) is on move in `game` at `version`, playing at `level`."""

    game: int
    version: int
    seat: int
    level: int | str

    def fields(self) -> dict[str, str]:
        return {
            "kind": "move",
            "game": str(self.game),
            "version": str(self.version),
            "seat": str(self.seat),
            "level": json.dumps(self.level),
        }


@dataclass(frozen=True)
class StateJob:
    """A dead-stone verdict (`judge`) or a territory estimate (`area`) of a Go position, answered on the list
    `reply` (a key name under the queue's prefix)."""

    kind: str  # "judge" | "area"
    state: dict[str, Any]  # miai.engines.record.encode_state
    reply: str

    def fields(self) -> dict[str, str]:
        return {
            "kind": self.kind,
            "state": json.dumps(self.state, separators=(",", ":")),
            "reply": self.reply,
        }


@dataclass(frozen=True)
class ReviewJob:
    """Compute the next part of the stored review `review` (a row of `reviews`), resuming from the positions
    it holds, as the runner `lease` (`reviewing.py`: every part of one submission carries the same token, so
    whoever takes a dead worker's part over carries on as its runner); `user` is whose turn it takes (the
    review's `requested_by`, 0 for none: `turns.py`)."""

    review: int
    lease: str
    user: int

    def fields(self) -> dict[str, str]:
        return {"kind": "review", "review": str(self.review), "lease": self.lease, "user": str(self.user)}


Job = MoveJob | StateJob | ReviewJob


def read_job(raw: dict[Any, Any], keys: Keys) -> Job:
    """The job in a stream entry's fields (bytes or text); BadJob when anything is off."""
    fields = {_text(k, 64): _text(v, MAX_FIELD) for k, v in raw.items()}
    kind = fields.get("kind")
    if kind == "move":
        return MoveJob(
            _id(fields, "game"), _id(fields, "version"), _id(fields, "seat"), _level(fields.get("level"))
        )
    if kind == "review":
        return ReviewJob(_id(fields, "review"), _lease(fields.get("lease")), _id(fields, "user", low=0))
    if kind in ("judge", "area"):
        reply = fields.get("reply", "")
        if not reply.startswith(keys.reply("")) or len(reply) > len(keys.reply("")) + 64:
            raise BadJob(f"reply key {reply[:80]!r} is not one of this queue's")
        try:
            state = json.loads(fields.get("state", ""))
        except ValueError:
            raise BadJob("state is not JSON") from None
        if not isinstance(state, dict):
            raise BadJob("state is not a record")
        return StateJob(kind, state, reply)
    raise BadJob(f"unknown job kind {str(kind)[:40]!r}")


def _text(value: Any, limit: int) -> str:
    if isinstance(value, bytes):
        try:
            value = value.decode()
        except UnicodeDecodeError:
            raise BadJob("a field is not UTF-8") from None
    if not isinstance(value, str) or len(value) > limit or "\x00" in value:
        raise BadJob("a field is too long, or holds NUL")
    return value


def _id(fields: dict[str, str], name: str, low: int = 1) -> int:
    text = fields.get(name, "")
    if not (text.isascii() and text.isdigit()) or len(text) > 19 or not low <= int(text) < MAX_ID:
        raise BadJob(f"{name} is not an integer from {low}: {text[:40]!r}")
    return int(text)


def _lease(text: str | None) -> str:
    if text is None or not (len(text) == 32 and all(c in "0123456789abcdef" for c in text)):
        raise BadJob(f"lease is not a runner's token: {str(text)[:40]!r}")
    return text


def _level(text: str | None) -> int | str:
    try:
        level = json.loads(text or "")
    except ValueError:
        raise BadJob("level is not JSON") from None
    if isinstance(level, bool) or not isinstance(level, int | str):
        raise BadJob(f"level is a number or a name, not {str(level)[:40]!r}")
    if isinstance(level, int) and not 1 <= level <= 1000:
        raise BadJob(f"level {level} is out of range")
    if isinstance(level, str) and not 0 < len(level) <= MAX_LEVEL_TEXT:
        raise BadJob("level name is empty or too long")
    return level


def finite_list(values: Any, limit: int) -> list[float]:
    """A reply's numbers, checked (only workers write replies, but the web trusts nothing)."""
    if not isinstance(values, list) or len(values) > limit:
        raise BadJob("not a list of numbers")
    out = []
    for value in values:
        if isinstance(value, bool) or not isinstance(value, int | float) or not math.isfinite(value):
            raise BadJob("not a finite number")
        out.append(float(value))
    return out
