"""The engine review on a finished game's page, at desktop and phone size: a player asks for a review, sees
its progress while the engine works, then the winning-chance graph; clicking the graph, or the arrow keys on
it, moves the board to that move; a swing's button shows its move with the engine's move as a ghost stone,
and the ownership map shades the board."""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path

import pytest
from playwright.sync_api import Browser, ViewportSize, expect

from tests.web.support import ApiPlayer, miai_server, start_game
from tests.web.ui import VIEWPORTS, counter, point, signed_up, tag

MOVES = ["E5", "C3", "G7", "C7", "G3", "E3", "C5", "G5", "E7", "B2", "H8", "B8", "H2", "D4", "F6", "D6"]
REVIEWED_MS = 120_000  # the first search of the server process may load the compiled kernel


@pytest.fixture(scope="module")
def review_server(chromium: str, tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """Enough playouts a position that the review takes a moment (its progress shows), on a small game."""
    with miai_server(tmp_path_factory.mktemp("miai-review"), MIAI_REVIEW_QUICK_PLAYOUTS="1500") as base:
        yield base


@pytest.mark.parametrize("viewport", VIEWPORTS)
def test_a_player_asks_for_a_review_sees_its_progress_and_jumps_through_the_graph(
    browser: Browser, review_server: str, viewport: ViewportSize, artifacts: Path
) -> None:
    t = tag(viewport)
    user = signed_up(browser, review_server, f"rev{t}", viewport)
    bob = ApiPlayer.register(review_server, f"bobrev{t}")
    gid = start_game([user, bob], {"size": 9})
    for i, move in enumerate(MOVES):
        (user, bob)[i % 2].call("POST", f"/games/{gid}/moves", {"move": move})
    user.call("POST", f"/games/{gid}/resign")  # Black, on move, resigns
    total = len(MOVES) + 1  # the resignation is a move of the record

    page = user.page
    page.goto(f"/games/{gid}")
    expect(page.locator("#review")).to_be_visible()
    expect(page.locator("#ask-review")).to_be_visible()
    expect(page.locator("#ask-deep-review")).to_be_visible()  # a player may ask for a deep one
    page.click("#ask-review")
    progress = page.locator("#review-progress")
    expect(progress).to_be_visible()  # waiting, then "Reviewing: N of 18 positions"
    expect(progress).to_contain_text(f"of {total + 1} positions", timeout=REVIEWED_MS)
    graph = page.locator("#review-graph")
    expect(graph).to_be_visible(timeout=REVIEWED_MS)
    expect(progress).to_have_count(0)
    expect(page.locator("#ask-review")).to_have_count(0)  # stored: nothing more to ask for
    expect(graph.locator(".share-line")).to_have_count(2)
    graph_box = graph.bounding_box()
    assert graph_box is not None
    for label in graph.locator(".axis").all():  # "0%", "50%", "100%": none clipped by the chart's edge
        box = label.bounding_box()
        assert box is not None and box["x"] >= graph_box["x"], f"{label.text_content()} is cut off"

    # A click on the graph shows that move: x from the graph's padding (44 of 600 units) to its right edge.
    box = graph.bounding_box()
    assert box is not None
    wanted = 8
    x = (44 + wanted * (600 - 44 - 8) / total) / 600 * box["width"]
    graph.click(position={"x": x, "y": box["height"] / 2})
    expect(counter(page)).to_contain_text(f"Move {wanted} of {total}")
    expect(page.locator("#review-readout")).to_contain_text(f"Move {wanted}:")
    graph.press("ArrowRight")
    expect(counter(page)).to_contain_text(f"Move {wanted + 1} of {total}")
    graph.press("Home")
    expect(counter(page)).to_contain_text(f"Move 0 of {total}")

    # Ownership at the shown move.
    expect(page.locator(".board .area-shade")).to_have_count(0)
    page.check("#review-ownership")
    expect(page.locator(".board .area-shade").first).to_be_attached()

    # Each listed swing jumps to its move; the engine's preferred point shows as a ghost stone there.
    swings = page.locator("#swings button")
    expect(swings.first).to_be_visible()
    review = user.call("GET", f"/games/{gid}/review?depth=quick")["reviews"][0]
    # A swing whose preferred point is still empty at its move (the game captures nothing): its ghost shows.
    ghosted = [
        (i, s) for i, s in enumerate(review["swings"]) if s["best"] not in (None, "pass", *MOVES[: s["move"]])
    ]
    assert ghosted, review["swings"]
    index, shown = ghosted[0]
    swings.nth(index).click()
    expect(counter(page)).to_contain_text(f"Move {shown['move']} of {total}")
    expect(point(page, shown["best"])).to_have_attribute("aria-label", re.compile(r"empty$"))
    expect(page.locator(f'.board .review-ghost[data-point="{shown["best"]}"]')).to_have_count(1)
    page.screenshot(path=str(artifacts / f"review-{'phone' if t else 'desktop'}.png"), full_page=True)
    user.close()
