"""The screenshots in docs/screenshots: a finished 19x19 game and a finished 4-colour 9x9 game (territory).

    python tests/web/make_screenshots.py [OUTPUT_DIR]     (default: docs/screenshots)

Starts a Miai server on a fresh database, plays both games through the HTTP API as bots would, then opens
each finished game in headless Chromium as one of its players and saves the page.
tests/web/test_screenshots.py runs the same code into tests/artifacts so CI keeps it working.
"""

from __future__ import annotations

import random
import sys
import tempfile
from pathlib import Path
from typing import Any

if __name__ == "__main__":  # run as a script from a checkout: make `tests` and `miai` importable
    ROOT = Path(__file__).resolve().parents[2]
    sys.path[:0] = [str(ROOT), str(ROOT / "src")]

from tests.web.support import CHROMIUM_ARGS, PASSWORD, ApiPlayer, chromium_path, close_clients, miai_server

LETTERS = "ABCDEFGHJKLMNOPQRSTUVWXYZ"
VIEWPORT = {"width": 1200, "height": 820}

# The 4-colour game's final position (row 9 at the top): capitals are stones, lowercase letters the territory
# they surround; '.' is neutral. A = team 1 ... D = team 4.
FOUR_COLOURS = """
bbbB.Cccc
bbbB.Cccc
BBBB.CCCC
.....DDDD
AAAA.Dddd
aaaA.Dddd
aaaA.Dddd
aaaA.Dddd
aaaA.Dddd
"""


def vertex(row: int, col: int) -> str:
    return f"{LETTERS[col]}{row + 1}"


def walls_19x19(seed: int = 7) -> tuple[list[str], list[str]]:
    """Black's and White's moves for a 19x19 game: two touching walls from top to bottom along a random path,
    an invasion by each side that the other captures, and reinforcing stones until both walls are done."""
    rng = random.Random(seed)
    cols = [11]
    for _ in range(18):
        cols.append(min(12, max(5, cols[-1] + rng.choice((-1, -1, 0, 1)))))
    black = {(r, c) for r, c in enumerate(cols)}
    white = {(r, c + 1) for r, c in enumerate(cols)}
    for r in range(18):  # keep each wall orthogonally connected where the path steps sideways
        if cols[r + 1] == cols[r] + 1:
            black.add((r + 1, cols[r]))
            white.add((r, cols[r] + 2))
        elif cols[r + 1] == cols[r] - 1:
            black.add((r, cols[r] - 1))
            white.add((r + 1, cols[r] + 1))
    centre = 9
    order = lambda p: (abs(p[0] - centre) + rng.random(), p)  # noqa: E731  from the middle outwards
    b_moves = [vertex(*p) for p in sorted(black, key=order)]
    w_moves = [vertex(*p) for p in sorted(white, key=order)]
    # White invades at C16 early; Black surrounds and captures it late. Black does the same at R4.
    w_moves.insert(3, "C16")
    b_moves[len(b_moves) - 2 : len(b_moves) - 2] = ["C15", "B16", "D16", "C17"]
    b_moves.insert(5, "R4")
    w_moves[len(w_moves) - 2 : len(w_moves) - 2] = ["R5", "Q4", "S4", "R3"]
    filler_b = iter(vertex(r, c) for r in (2, 6, 12, 16) for c in (1, 3))
    filler_w = iter(vertex(r, c) for r in (14, 10, 7, 2) for c in (15, 17))
    while len(b_moves) < len(w_moves):
        b_moves.append(next(filler_b))
    while len(w_moves) < len(b_moves):
        w_moves.append(next(filler_w))
    return b_moves, w_moves


def four_colour_moves() -> list[list[str]]:
    """Each team's moves in order; team 2 first invades at B3, which team 1 surrounds and captures."""
    rows = FOUR_COLOURS.strip().splitlines()
    moves: list[list[str]] = [[], [], [], []]
    for i, line in enumerate(rows):
        row = len(rows) - 1 - i
        for col, ch in enumerate(line):
            if ch in "ABCD":
                moves["ABCD".index(ch)].append(vertex(row, col))
    moves[1].insert(0, "B3")
    moves[0].extend(["B4", "A3", "C3", "B2"])  # the last one captures B3
    return moves


def play_19x19(base: str) -> tuple[int, ApiPlayer]:
    black, white = ApiPlayer.register(base, "alice"), ApiPlayer.register(base, "bob")
    gid = black.call("POST", "/games", {"size": 19, "preset": "tromp-taylor", "team": 1})["id"]
    white.call("POST", f"/games/{gid}/join", {"team": 2})
    for p in (black, white):
        p.call("POST", f"/games/{gid}/confirm")
    b_moves, w_moves = walls_19x19()
    for b, w in zip(b_moves, w_moves, strict=True):
        black.play(gid, b)
        white.play(gid, w)
    black.play(gid, "pass")
    white.play(gid, "pass")
    return gid, black


def play_four_colours(base: str) -> tuple[int, ApiPlayer]:
    players = [ApiPlayer.register(base, name) for name in ("carol", "dave", "erin", "frank")]
    gid = players[0].call("POST", "/games", {"size": 9, "teams": 4, "team": 1})["id"]
    for team, p in enumerate(players[1:], start=2):
        p.call("POST", f"/games/{gid}/join", {"team": team})
    for p in players:
        p.call("POST", f"/games/{gid}/confirm")
    queues = [list(m) for m in four_colour_moves()]
    while any(queues):
        for p, queue in zip(players, queues, strict=True):
            p.play(gid, queue.pop(0) if queue else "pass")
    for p in players:  # every colour passes once more in a row: the end
        if players[0].game(gid)["status"] == "active":
            p.play(gid, "pass")
    return gid, players[0]


def capture(browser: Any, base: str, gid: int, viewer: ApiPlayer, path: Path) -> dict[str, Any]:
    """Open the finished game as `viewer` and save the page; returns the game as the API reports it."""
    from playwright.sync_api import expect

    context = browser.new_context(base_url=base, viewport=VIEWPORT, device_scale_factor=1)
    try:
        credentials = {"username": viewer.username, "password": PASSWORD}
        login = context.request.post("/api/v1/session", data=credentials)
        assert login.ok, login.text()
        page = context.new_page()
        page.goto(f"/games/{gid}")
        expect(page.locator("#result-headline")).to_be_visible()
        expect(page.locator(".board .territory").first).to_be_attached()
        page.evaluate("document.activeElement && document.activeElement.blur()")
        path.parent.mkdir(parents=True, exist_ok=True)
        page.screenshot(path=str(path))
    finally:
        context.close()
    game: dict[str, Any] = viewer.game(gid)
    return game


def make(browser: Any, base: str, out: Path) -> dict[str, dict[str, Any]]:
    """Play both games on the server at `base` and save their screenshots in `out`."""
    gid, viewer = play_19x19(base)
    big = capture(browser, base, gid, viewer, out / "finished-19x19.png")
    gid, viewer = play_four_colours(base)
    four = capture(browser, base, gid, viewer, out / "four-colours-9x9.png")
    return {"finished-19x19": big, "four-colours-9x9": four}


def main(argv: list[str]) -> int:
    out = Path(argv[0]) if argv else Path(__file__).resolve().parents[2] / "docs" / "screenshots"
    chromium = chromium_path()
    if chromium is None:
        print("make_screenshots: Chromium is not installed (no /usr/bin/chromium, no chromium on PATH)")
        return 1
    try:
        from playwright.sync_api import sync_playwright
    except ImportError:
        print("make_screenshots: the Python package playwright is not installed (pip install playwright)")
        return 1
    with tempfile.TemporaryDirectory() as tmp, miai_server(Path(tmp)) as base, sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=chromium, headless=True, args=CHROMIUM_ARGS)
        try:
            games = make(browser, base, out)
        finally:
            browser.close()
            close_clients()
    for name, game in games.items():
        result = game["result"]
        totals = ", ".join(f"team {s['team']}: {s['total']}" for s in result["scores"])
        print(f"{out / (name + '.png')}: {result['reason']}, winners {result['winners']} ({totals})")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
