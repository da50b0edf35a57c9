"""A Dgo practice game for two people at one screen, as Dan-Ball's Dgo plays, at 1280×800 and 390×844: a 7×7
board from the practice form, the move counter (kifu) at every step of undo / redo / back to the start /
forward to the end, the Area estimate, and two passes that end it with the result counted with komi 6.5.

(Practice against the computer, with and without handicap, is in test_practice_computer.py.)
"""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import Browser, ViewportSize, expect

from tests.web.ui import (
    DESKTOP,
    VIEWPORTS,
    assert_in_viewport,
    counter,
    expect_point,
    pass_turn,
    play,
    signed_up,
    start_local_practice,
)


@pytest.mark.parametrize("viewport", VIEWPORTS)
def test_local_dgo_game_on_7x7_to_the_result_with_komi(
    browser: Browser, server: str, viewport: ViewportSize
) -> None:
    user = signed_up(browser, server, f"dgo7-{'d' if viewport is DESKTOP else 'p'}", viewport)
    page = user.page
    start_local_practice(page, size="7")
    expect(page.locator('.board [role="gridcell"]')).to_have_count(49)
    expect(page.locator("dl.rules")).to_contain_text("Komi1: 0, 2: 6.5")
    page.evaluate("window.scrollTo(0, 0)")
    controls = ("#undo", "#redo", "#practice-start", "#practice-end", "#area", "#move-counter")
    assert_in_viewport(page, page.locator(".board"), *(page.locator(c) for c in controls))

    # One person plays both colours; the counter names every move.
    play(page, "D4", 1)
    expect(counter(page)).to_have_text("Move 1 of 1 · Black: D4")
    expect(page.locator("#turn")).to_contain_text("Your turn")
    play(page, "C5", 2)
    expect(counter(page)).to_have_text("Move 2 of 2 · White: C5")
    stones = page.locator(".board .stone")

    page.click("#undo")
    expect(counter(page)).to_have_text("Move 1 of 1 · Black: D4")
    expect_point(page, "C5", "empty")
    page.click("#redo")
    expect(counter(page)).to_have_text("Move 2 of 2 · White: C5")
    expect(stones).to_have_count(2)
    page.click("#practice-start")
    expect(counter(page)).to_have_text("Move 0 of 0")
    expect(stones).to_have_count(0)
    page.click("#practice-end")
    expect(counter(page)).to_have_text("Move 2 of 2 · White: C5")
    page.click("#undo")
    expect(counter(page)).to_have_text("Move 1 of 1 · Black: D4")

    # Area: the estimate of the position, with White's komi.
    page.click("#area")
    expect(page.locator(".area-box")).to_have_attribute("data-ply", "1")
    estimate = r"^Estimated score \(area counting\): Black [\d.]+, White [\d.]+"
    estimate += r" \(komi 6\.5\)\."
    expect(page.locator("#area-score")).to_contain_text(re.compile(estimate))
    page.click("#area")
    expect(page.locator(".board .area-shade")).to_have_count(0)

    # White passes, Black passes: counted by area, the lone black stone owns the board, White has komi.
    pass_turn(page, 2, dialog=False)  # no dialog in practice games
    pass_turn(page, 3, dialog=False)
    expect(page.locator("#result-headline")).to_have_text("Black wins by 42.5 points.")
    expect(page.locator('.scores tr[data-team="1"] td.total')).to_have_text("49")
    expect(page.locator('.scores tr[data-team="2"] td.komi')).to_have_text("6.5")
    expect(page.locator('.scores tr[data-team="2"] td.total')).to_have_text("6.5")
    expect(page.locator(".actions")).to_be_hidden()
    page.click('button[aria-label="First move"]')
    expect(counter(page)).to_have_text("Move 0 of 3")
    page.click('button[aria-label="Last move"]')
    expect(counter(page)).to_have_text("Move 3 of 3 · Black: pass")
    user.close()
