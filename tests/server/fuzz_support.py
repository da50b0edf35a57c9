"""What the two fuzz suites share: their app and hypothesis settings, the computer's stand-in, games to play
in, the replay check of a game, how failures are collected and reported, and the hostile values they send."""

from __future__ import annotations

import json
import os
from collections.abc import Callable, Hashable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import hypothesis.strategies as st
from fastapi.testclient import TestClient
from hypothesis import HealthCheck, Phase, settings

from miai.core.go import GoState, Place
from miai.formats.sgf.games import load_game
from miai.formats.sgf.go import load_go
from miai.server.app import create_app
from miai.server.play.kinds import table_of
from tests.server.conftest import Player, make_settings

COLUMNS = "ABCDEFGHJKLMNOPQRSTUVWXYZ"


def examples(count: int) -> int:
    """`count` examples, times MIAI_FUZZ_SCALE (default 1) for a longer run on a developer's machine."""
    return max(1, round(count * float(os.environ.get("MIAI_FUZZ_SCALE", "1"))))


# The same examples on every run, so that CI is reproducible; MIAI_FUZZ_RANDOM=1 explores new ones.
DERANDOMIZE = not os.environ.get("MIAI_FUZZ_RANDOM")
# Bounded and reproducible; the number of examples is given where a fuzzer runs.
FUZZ_SETTINGS = settings(
    derandomize=DERANDOMIZE,
    database=None,
    deadline=None,
    phases=[Phase.generate],  # failures are collected, not raised: nothing to shrink
    suppress_health_check=list(HealthCheck),
)


@dataclass(frozen=True)
class Failure:
    """One thing the server did wrong: where (an operation, a socket), what was sent, what came back."""

    where: str
    sent: str
    outcome: str

    def __str__(self) -> str:
        return f"{self.where}\n    sent: {self.sent[:400]}\n    outcome: {self.outcome[:400]}"


def assert_no_failures(failures: list[Failure], kind: Callable[[Failure], Hashable], what: str) -> None:
    """Fail listing one failure of each `kind` (the first found): a run reports every kind, not only one."""
    distinct: dict[Hashable, Failure] = {}
    for failure in failures:
        distinct.setdefault(kind(failure), failure)
    assert not distinct, f"{len(distinct)} kinds of {what}:\n" + "\n".join(map(str, distinct.values()))


async def first_legal(state: Any, level: int | str, seed: int, seconds: float | None) -> Any:
    """The computer's stand-in: the first legal placement, so no engine search runs in the fuzzers."""
    if isinstance(state, GoState):
        points = state.legal_points()
        return Place(points[0]) if points else state.legal_moves()[-1]
    return state.legal_moves()[0]


def fuzz_client(database_url: str, tmp_path: Path, rate_limits: bool = False) -> Iterator[TestClient]:
    """The app under fuzzing, with cheap password hashing; without rate limits unless asked (the HTTP fuzzer
    would mostly meet 429s)."""
    settings = make_settings(
        database_url, tmp_path, argon2_time_cost=1, argon2_memory_kib=64, rate_limits_enabled=rate_limits
    )
    app = create_app(settings, background=False, chooser=first_legal)
    with TestClient(app) as client:
        yield client


def settle(client: TestClient) -> None:
    """Wait until no computer player is thinking."""
    app: Any = client.app
    assert client.portal is not None, "the client is not started"
    client.portal.call(app.state.computers.idle)


def started(first: Player, second: Player, **options: Any) -> int:
    """A two-player game that has started, `first` playing team 1 (on move)."""
    gid: int = first.ok("/api/v1/games", {"size": 9, "team": 1, **options})["id"]
    second.ok(f"/api/v1/games/{gid}/join", {"team": 2})
    first.ok(f"/api/v1/games/{gid}/confirm")
    second.ok(f"/api/v1/games/{gid}/confirm")
    return gid


def free_vertex(position: dict[str, Any], skip: int = 0) -> str:
    """The vertex of an empty point of a Go position (the `skip`-th one), e.g. for an ordinary move."""
    size = position["size"]
    empty = [index for index, team in enumerate(position["board"]) if team == 0]
    index = empty[skip % len(empty)]
    return f"{COLUMNS[index % size]}{index // size + 1}"


def assert_replays(reader: Player, gid: int) -> dict[str, Any]:
    """The game's stored moves, and its SGF download, replay through the rules core to the position its
    snapshot shows; returns the snapshot."""
    response = reader.get(f"/api/v1/games/{gid}")
    assert response.status_code == 200, response.text
    snapshot: dict[str, Any] = response.json()
    if snapshot["status"] not in {"active", "finished"}:
        assert "moves" not in snapshot, snapshot
        return snapshot
    table = table_of(snapshot["kind"], snapshot["options"])
    state = table.new_state()
    for move in snapshot["moves"]:
        state = table.replay(state, move["move"])
    assert table.position(state) == snapshot["position"], f"game {gid}: its stored moves replay differently"
    sgf = reader.get(f"/api/v1/games/{gid}/sgf")
    assert sgf.status_code == 200, sgf.text
    from_sgf = load_go(sgf.content).state if snapshot["kind"] == "go" else load_game(sgf.content)
    assert table.position(from_sgf) == snapshot["position"], f"game {gid}: its SGF replays differently"
    return snapshot


# --------------------------------------------------------------------------------------- hostile values


class Raw(str):
    """JSON text sent as is (`NaN`, `1e400`, deep nesting): what no JSON encoder produces for a value."""


def encode(value: Any) -> str:
    """JSON text of `value` with Raw pieces verbatim; lone surrogates become `\\udXXX` escapes."""
    if isinstance(value, Raw):
        return str(value)
    if isinstance(value, dict):
        return "{" + ",".join(f"{json.dumps(k)}:{encode(v)}" for k, v in value.items()) + "}"
    if isinstance(value, list):
        return "[" + ",".join(encode(v) for v in value) + "]"
    return json.dumps(value)  # ensure_ascii: "\ud800" is written as an escape


HOSTILE_TEXTS = [
    "\x00", "a\x00b", "a\ud800b", "\udfff", "\ud83d", "\ud800\x00", "\x1b[2J", "\u202egnp.exe", "\r\n",
    "\x7f", "\x85", "\ufeff", "\uffff", "", " ", "x" * 70000, "😀" * 3000, "%00", "../../../etc/passwd",
    "' OR 1=1 --", "<script>alert(1)</script>", "${jndi:x}", "NaN", "-1", "0", "9" * 30, "null",
]  # fmt: skip
HOSTILE_NUMBERS = [
    0, -1, 1, 2**31 - 1, 2**31, 2**63 - 1, 2**63, 2**64, -(2**63), -(2**63) - 1, 10**30, 1e308, -1e308,
    5e-324, 0.5, Raw("NaN"), Raw("Infinity"), Raw("-Infinity"), Raw("1e400"), Raw("-0"), Raw("9" * 5000),
]  # fmt: skip
DEEP = Raw("[" * 100_000 + "]" * 100_000)

# Any character, lone surrogates (Cs) and control characters (Cc) included.
hostile_char = st.characters() | st.characters(categories=["Cs", "Cc"])
hostile_text = st.sampled_from(HOSTILE_TEXTS) | st.text(hostile_char, max_size=12)
hostile_scalar = st.one_of(hostile_text, st.sampled_from(HOSTILE_NUMBERS), st.booleans(), st.none())
hostile_value = st.recursive(
    hostile_scalar,
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(hostile_text, inner, max_size=3),
    max_leaves=6,
) | st.just(DEEP)
