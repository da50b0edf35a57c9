"""Review sharing benchmark: how long a member's short review takes alone, and while three other accounts
keep the engine busy with long reviews of uploaded records (security issue "Safe at the edges, round two").

    PYTHONPATH=src .venv/bin/python bench/review_share.py [--playouts 60] [--attackers 3] [--asks 10]
                                        [--long-moves 150] [--short-moves 16] [--size 19] [--timeout 240]

Runs the server in this process (the ASGI app through Starlette's test client, `MIAI_ENGINE_QUEUE=local`,
the real engine pool, a SQLite file in a temporary folder, rate limits off) with few playouts a position,
every record on one board size (`--size`, 19 by default: positions of equal cost).
The victim uploads a record of `--short-moves` moves and asks for its quick review: its time alone
(the median of three, after a first review that loads the engine). Then each attacker uploads `--asks`
records of `--long-moves` moves and asks for a review of each, as fast as the API answers (a
refusal, `429 review_queue_full`, is counted); then the victim asks for a review of the same short record
uploaded again, and that review's time is measured under the load. The ratio of the two is the figure:
with reviews taking turns by member it stays a small multiple (each round of turns costs one part of each
attacker); when reviews took turns by review it grew with every review queued. Progress goes to stderr,
results to stdout; the server stops (and drops the attackers' unfinished work) at the end.

Reference runs (2 cores shared with other work, load average about 20, so the times are noisy): with the
defaults, alone 2.5 s, under load 14.3 s (5.7x) and 13.7 s (4.1x, alone 3.4 s), 18 reviews queued and 12
refused by the cap of 1000 positions; with `--asks 5` (15 queued, none refused) 17.6 s for 2.0 s alone
(8.9x), where the code before reviews took turns by member took 71.8 s for 3.1 s alone (22.9x). The
floor here is about 5.7x: each of the short review's three parts waits for one part of each attacker, and
its first also for the part under way.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from fastapi.testclient import TestClient

from miai.server.app import create_app
from miai.server.settings import Settings

LETTERS = "abcdefghijklmnopqrstuvwxy"


def log(message: str) -> None:
    print(message, file=sys.stderr, flush=True)


def record(size: int, moves: int, shift: int = 0) -> bytes:
    """A record of `moves` stones on distinct points, none captured (each colour fills rows of its own)."""
    black = [(x, y) for y in range(0, size // 2) for x in range(size)]
    white = [(x, y) for y in range(size - 1, size // 2, -1) for x in range(size)]
    nodes = []
    for i in range(moves):
        x, y = (black if i % 2 == 0 else white)[(i // 2 + shift) % len(black)]
        nodes.append(f";{'BW'[i % 2]}[{LETTERS[x]}{LETTERS[y]}]")
    return f"(;GM[1]FF[4]SZ[{size}]KM[6.5]RE[B+R]{''.join(nodes)})".encode()


class Member:
    def __init__(self, client: TestClient, name: str) -> None:
        answer = client.post("/api/v1/accounts", json={"username": name, "password": "correct horse"})
        answer.raise_for_status()
        csrf = answer.json()["csrf_token"]
        token = client.post("/api/v1/me/tokens", json={"name": "bench"}, headers={"X-CSRF-Token": csrf})
        token.raise_for_status()
        client.cookies.clear()
        self.client = client
        self.headers = {"Authorization": f"Bearer {token.json()['token']}"}

    def upload(self, data: bytes) -> int:
        headers = {**self.headers, "Content-Type": "application/x-go-sgf"}
        answer = self.client.post("/api/v1/games/upload", content=data, headers=headers)
        answer.raise_for_status()
        return int(answer.json()["id"])

    def ask(self, gid: int) -> int:
        body = {"depth": "quick"}
        return self.client.post(f"/api/v1/games/{gid}/review", json=body, headers=self.headers).status_code

    def review(self, gid: int) -> dict[str, Any]:
        found = self.client.get(f"/api/v1/games/{gid}/review", headers=self.headers).json()["reviews"]
        return found[0] if found else {}

    def timed_review(self, data: bytes, timeout: float) -> float:
        """Upload, ask, and wait until the review is done: seconds from the ask."""
        gid = self.upload(data)
        started = time.perf_counter()
        status = self.ask(gid)
        if status != 202:
            raise SystemExit(f"the victim's review was refused: {status}")
        while self.review(gid).get("status") != "done":
            if time.perf_counter() - started > timeout:
                return float("inf")
            time.sleep(0.05)
        return time.perf_counter() - started


def main() -> None:
    formatter = argparse.RawDescriptionHelpFormatter
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=formatter)
    parser.add_argument("--playouts", type=int, default=60, help="engine playouts a position (quick)")
    parser.add_argument("--attackers", type=int, default=3)
    parser.add_argument("--asks", type=int, default=10, help="reviews each attacker asks for")
    parser.add_argument("--long-moves", type=int, default=150)
    parser.add_argument("--short-moves", type=int, default=16)
    parser.add_argument("--size", type=int, default=19, help="board size of every record (equal positions)")
    parser.add_argument("--timeout", type=float, default=240.0, help="seconds to wait for the loaded review")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        settings = Settings(
            database_url=f"sqlite+aiosqlite:///{(Path(folder) / 'miai.db').as_posix()}",
            data_dir=Path(folder),
            rate_limits_enabled=False,
            review_quick_playouts=args.playouts,
            computer_seconds=0.5,
        )
        with TestClient(create_app(settings, background=False)) as client:
            victim = Member(client, "victim")
            short = record(args.size, args.short_moves)
            log("warming up (the first review loads the engine)")
            victim.timed_review(short, args.timeout)
            alone = [victim.timed_review(short, args.timeout) for _ in range(3)]
            log(f"alone: {[round(t, 2) for t in alone]} s")
            attackers = [Member(client, f"attacker{i}") for i in range(args.attackers)]
            started = time.perf_counter()
            asked = {202: 0}
            for i in range(args.asks):
                for k, attacker in enumerate(attackers):
                    data = record(args.size, args.long_moves, shift=i * 7 + k)
                    status = attacker.ask(attacker.upload(data))
                    asked[status] = asked.get(status, 0) + 1
            log(f"attackers' asks in {time.perf_counter() - started:.1f} s: {asked}")
            loaded = victim.timed_review(short, args.timeout)
            log(f"under load: {loaded:.2f} s")
    median = statistics.median(alone)
    refused = sum(asked.values()) - asked.get(202, 0)
    print(
        f"review of {args.short_moves + 1} positions ({args.size}x{args.size}, {args.playouts} playouts):"
        f" alone {median:.2f} s (median of 3); under {args.attackers} accounts' long reviews"
        f" ({asked.get(202, 0)} queued of {args.long_moves + 1} positions each, {refused} refused)"
        f" {loaded:.2f} s: {loaded / median:.1f}x"
    )


if __name__ == "__main__":
    main()
