"""Engine time shared fairly between members (security issue "Safe at the edges, round two", 4 and 7):
review work takes turns by member, not by review, in the server and on the Redis queue; one member's queued
positions are capped; computer moves go before any queued review; and a worker that dies in a review's first
part has it taken over and resumed, like any later part."""

from __future__ import annotations

import asyncio
import threading
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from miai.engines.review import PositionReview
from miai.server.app import create_app
from miai.server.engine_jobs import reviewing
from miai.server.engine_jobs import worker as worker_module
from miai.server.engine_jobs.turns import Turns
from miai.server.settings import Settings
from tests.server.conftest import Player, make_settings, register
from tests.server.engine_jobs_support import FakeEstimator, drop_keys, queue_settings, until, worker_in
from tests.server.test_computer_games import centre_first
from tests.server.test_engine_jobs import computer_to_move, moves, web_never_searches
from tests.server.test_reviews import TINY, computed
from tests.server.test_upload import upload_file

LETTERS = "abcdefghijklmnopqrstuvwxy"
EVEN = PositionReview((0.5, 0.5), (3.5, 3.5), "D4", None)


def record(size: int, moves: int) -> bytes:
    """A record of `moves` stones two points apart (no captures) on a board of `size`."""
    points = [(x, y) for y in range(0, size, 2) for x in range(0, size, 2)]
    nodes = "".join(f";{'BW'[i % 2]}[{LETTERS[x]}{LETTERS[y]}]" for i, (x, y) in enumerate(points[:moves]))
    return f"(;GM[1]FF[4]SZ[{size}]KM[6.5]RE[B+R]{nodes})".encode()


def upload(player: Player, size: int, moves: int) -> int:
    response = upload_file(player, record(size, moves))
    assert response.status_code == 201, response.text
    return int(response.json()["id"])


def ask(player: Player, gid: int, depth: str = "quick") -> Any:
    """Ask for a review; its submission is made before this returns (on Redis in the order asked)."""
    answer = player.post(f"/api/v1/games/{gid}/review", {"depth": depth})
    player.client.portal.call(player.client.app.state.jobs.idle)  # type: ignore[attr-defined,union-attr]
    return answer


class Recorder(FakeEstimator):
    """Instant reviews, noting each position's board size (who asked: every member's records have their
    own size) and, as a worker's engine, its computer moves; the first review waits for `gate`."""

    def __init__(self, calls: list[Any], gate: threading.Event | None = None) -> None:
        super().__init__(centre_first)
        self.calls = calls
        self.gate = gate

    async def choose(self, *args: Any) -> Any:
        self.calls.append("move")
        return await super().choose(*args)

    async def review(self, state: Any, playouts: int, seed: int) -> PositionReview:
        while self.gate is not None and not self.gate.is_set():
            await asyncio.sleep(0.01)
        self.calls.append(state.size)
        return EVEN


SIZES = {"ann": 11, "bob": 13, "cyd": 15, "vic": 9}
ATTACKERS = ("ann", "bob", "cyd")


def queue_the_attack(client: TestClient) -> dict[int, str]:
    """Three members queue three reviews of six positions each (Ann one first, then Bob and Cyd theirs, a
    fourth member one of four positions, and Ann her two others); the member of each board size."""
    members = {name: register(client, name) for name in SIZES}
    records = {name: [upload(members[name], SIZES[name], 5) for _ in range(3)] for name in ATTACKERS}
    records["vic"] = [upload(members["vic"], SIZES["vic"], 3)]
    for name, count in (("ann", 1), ("bob", 3), ("cyd", 3), ("vic", 1), ("ann", 2)):
        for _ in range(count):
            assert ask(members[name], records[name].pop(0)).status_code == 202
    return {size: name for name, size in SIZES.items()}


def turns(calls: list[Any], names: dict[int, str]) -> list[str]:
    """Whose each part was (a part is two positions here)."""
    return [names[size] for size in calls[::2]]


# Every member with work waiting gets one part per round (in the order they came), so the short review is
# done after its member's second turn.
FAIR = ["ann", "bob", "cyd", "vic", "ann", "bob", "cyd", "vic", "ann", "bob", "cyd", "ann", "bob", "cyd"]


def test_reviews_take_turns_by_member_in_the_server(
    database_url: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(reviewing, "PART", 2)
    calls: list[Any] = []
    gate = threading.Event()
    app: Any = create_app(make_settings(database_url, tmp_path, **TINY), background=False)
    with TestClient(app) as client:
        app.state.jobs.reviewer.engine = Recorder(calls, gate)
        names = queue_the_attack(client)
        gate.set()
        computed(client)
    assert turns(calls, names)[: len(FAIR)] == FAIR
    assert len(calls) == 3 * 3 * 6 + 4


@pytest.fixture
def queue(database_url: str, tmp_path: Path) -> Iterator[Settings]:
    settings = queue_settings(database_url, tmp_path, **TINY)
    yield settings
    drop_keys(settings.redis_prefix)


def reviews(player: Player, gid: int) -> list[dict[str, Any]]:
    """The review of a member's uploaded record (private: read as its uploader)."""
    found: list[dict[str, Any]] = player.get(f"/api/v1/games/{gid}/review").json()["reviews"]
    return found


def done(player: Player, gid: int) -> bool:
    found = reviews(player, gid)
    return bool(found) and all(r["status"] == "done" for r in found)


def test_reviews_take_turns_by_member_on_the_worker(queue: Settings, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(reviewing, "PART", 2)
    calls: list[Any] = []
    with TestClient(create_app(queue, background=False, chooser=web_never_searches)) as client:
        names = queue_the_attack(client)
        with worker_in(client, queue, engine=Recorder(calls)):
            until(lambda: len(calls) == 3 * 3 * 6 + 4)
    assert turns(calls, names)[: len(FAIR)] == FAIR


def test_turns_go_round_the_members_with_work_waiting() -> None:
    turns: Turns[str] = Turns()
    for member, work in ((1, "ann 1"), (1, "ann 2"), (2, "bob 1"), (3, "cyd 1")):
        turns.add(member, work)
    taken = []
    while (turn := turns.take()) is not None:
        taken.append(turn)
        if turn[1] == "ann 1":  # its next part: first of Ann's, at her next turn
            turns.again(1, "ann 1, part 2")
        if turn[1] == "cyd 1":  # Bob's new work while none of his waits: he joins at the back
            turns.add(2, "bob 2")
    assert [work for _, work in taken] == ["ann 1", "bob 1", "cyd 1", "ann 1, part 2", "bob 2", "ann 2"]
    assert len(turns) == 0


# ----------------------------------------------------------------------------- a cap per member


def test_a_member_may_have_only_so_many_positions_queued(database_url: str, tmp_path: Path) -> None:
    gate = threading.Event()
    settings = make_settings(database_url, tmp_path, review_queued_positions=10, **TINY)
    app: Any = create_app(settings, background=False)
    with TestClient(app) as client:
        app.state.jobs.reviewer.engine = Recorder([], gate)
        ann, bob = register(client, "ann"), register(client, "bob")
        first, second = upload(ann, 9, 7), upload(ann, 9, 3)  # eight positions, then four
        assert ask(ann, first).status_code == 202
        refused = ask(ann, second)
        assert refused.status_code == 429, refused.text
        body = refused.json()
        assert body["error"] == "review_queue_full" and "8 positions" in body["message"]
        assert (body["queued"], body["positions"], body["limit"]) == (8, 4, 10)
        assert ask(ann, first, "deep").status_code == 429  # another depth of the same game costs as much
        theirs = upload(bob, 9, 3)
        assert ask(bob, theirs).status_code == 202  # the cap is each member's own
        invite = bob.get(f"/api/v1/games/{theirs}").json()["invite_code"]
        shared = ann.post(f"/api/v1/games/{theirs}/review?invite={invite}", {"depth": "quick"})
        assert shared.status_code == 200  # a review queued already costs nothing more
        too_long = ask(bob, upload(bob, 9, 11))  # twelve positions: more than anyone may queue
        assert too_long.status_code == 409, too_long.text
        assert (too_long.json()["positions"], too_long.json()["limit"]) == (12, 10)
        gate.set()
        computed(client)
        assert ask(ann, second).status_code == 202  # hers are done: she may queue again
        computed(client)
        assert done(ann, second)


def test_reviews_asked_at_once_stay_within_the_queue_cap(database_url: str, tmp_path: Path) -> None:
    """The queue is counted after the member's lock is taken: six asks at once (a script's burst) cannot all
    read an empty queue. On SQLite the count used to be read before the write lock, and more got through."""
    gate = threading.Event()
    settings = make_settings(database_url, tmp_path, review_queued_positions=10, **TINY)
    app: Any = create_app(settings, background=False)
    with TestClient(app) as client:
        app.state.jobs.reviewer.engine = Recorder([], gate)
        ann = register(client, "ann")
        games = [upload(ann, 9, 3) for _ in range(6)]  # four positions each: two fit in ten
        with ThreadPoolExecutor(max_workers=6) as pool:
            answers = list(
                pool.map(lambda gid: ann.post(f"/api/v1/games/{gid}/review", {"depth": "quick"}), games)
            )
        codes = sorted(answer.status_code for answer in answers)
        assert codes == [202] * 2 + [429] * 4, [answer.text for answer in answers]
        gate.set()
        computed(client)


# ----------------------------------------------------------------------------- computer moves first


def test_a_computer_move_goes_before_every_queued_review_on_the_worker(
    queue: Settings, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(reviewing, "PART", 2)
    calls: list[Any] = []
    gate = threading.Event()
    with TestClient(create_app(queue, background=False, chooser=web_never_searches)) as client:
        ann, bob = register(client, "ann"), register(client, "bob")
        mine, theirs = upload(ann, 11, 5), upload(bob, 13, 5)
        assert ask(ann, mine).status_code == 202
        assert ask(bob, theirs).status_code == 202
        with worker_in(client, queue, engine=Recorder(calls, gate)):
            until(lambda: reviews(ann, mine)[0]["status"] == "running")
            alice, game, _ = computer_to_move(client)  # queued while ann's first part computes
            gate.set()
            until(lambda: len(moves(alice, game)) == 2 and done(ann, mine) and done(bob, theirs))
    # Ann's part under way ends; the move goes before Bob's review and the rest of Ann's.
    assert calls[:3] == [11, 11, "move"]
    assert sorted(c for c in calls if c != "move") == [11] * 6 + [13] * 6


# ----------------------------------------------------------------------------- a review's first part


class Hanging(FakeEstimator):
    """A worker's engine that never finishes a review position (its process is about to be killed)."""

    async def review(self, state: Any, playouts: int, seed: int) -> PositionReview:
        await asyncio.Event().wait()
        raise AssertionError("unreachable")


def test_a_dead_workers_first_part_is_taken_over_and_resumed(
    queue: Settings, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(worker_module, "GRACE_SECONDS", 0.1)  # the dead worker's job is not finished
    with TestClient(create_app(queue, background=False, chooser=web_never_searches)) as client:
        ann = register(client, "ann")
        gid = upload(ann, 9, 4)
        assert ask(ann, gid).status_code == 202

        def status() -> tuple[str, int]:
            [review] = reviews(ann, gid)
            return review["status"], review["done"]

        with worker_in(client, queue, engine=Hanging(centre_first), name="killed"):
            until(lambda: status() == ("running", 0))  # claimed, its first part under way
        # The job stays taken and unacknowledged; its heartbeat stopped with the worker.
        calls: list[Any] = []
        with worker_in(client, queue, engine=Recorder(calls), name="rescuer") as rescuer:
            until(lambda: bool(rescuer.handled))  # taken over after the visibility timeout (1 s here)
            assert rescuer.handled == {"done": 1}  # resumed: not dropped as another runner's
        assert status() == ("done", 5)
        assert calls == [9] * 5
