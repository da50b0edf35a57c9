"""Redo in a practice game matches what the server keeps: after a reload the Redo buttons are enabled only
when there are taken-back moves to replay (and replaying works), and replaying the next taken-back move by
hand keeps the rest of the line to redo."""

from __future__ import annotations

import pytest
from playwright.sync_api import Browser, ViewportSize, expect

from tests.web.ui import DESKTOP, PHONE, counter, expect_point, play, signed_up, start_local_practice


@pytest.mark.parametrize("viewport", [DESKTOP, PHONE], ids=["desktop", "phone"])
def test_redo_after_a_reload_matches_what_can_be_redone(
    browser: Browser, server: str, viewport: ViewportSize
) -> None:
    user = signed_up(browser, server, f"redoreload{viewport['width']}", viewport)
    page = user.page
    start_local_practice(page)
    play(page, "E5", 1)
    play(page, "D4", 2)
    undo, redo, redo_all = page.locator("#undo"), page.locator("#redo"), page.locator("#practice-end")

    page.reload()  # nothing was taken back: nothing to redo
    expect(counter(page)).to_contain_text("Move 2 of 2 · White: D4")
    expect(undo).to_be_enabled()
    expect(redo).to_be_visible()
    expect(redo).to_be_disabled()
    expect(redo_all).to_be_disabled()

    undo.click()
    expect(counter(page)).to_contain_text("Move 1 of 1 · Black: E5")
    page.reload()  # the server keeps the taken-back move: Redo still brings it back
    expect(counter(page)).to_contain_text("Move 1 of 1 · Black: E5")
    expect(redo).to_be_enabled()
    redo.click()
    expect(counter(page)).to_contain_text("Move 2 of 2 · White: D4")
    expect_point(page, "D4", "team 2 stone (white, circle), last move")
    expect(redo).to_be_disabled()

    # Both taken back, the first played again by hand: the second can still be redone.
    page.click("#practice-start")
    expect(counter(page)).to_have_text("Move 0 of 0")
    play(page, "E5", 1)
    expect(redo).to_be_enabled()
    page.reload()
    expect(counter(page)).to_contain_text("Move 1 of 1 · Black: E5")
    expect(redo).to_be_enabled()
    redo.click()
    expect(counter(page)).to_contain_text("Move 2 of 2 · White: D4")
    expect(redo).to_be_disabled()
    expect(redo_all).to_be_disabled()

    # Taken back and another move played instead: the server forgets the line, and Redo says so.
    undo.click()
    expect(redo).to_be_enabled()
    play(page, "G7", 2)
    expect(redo).to_be_disabled()
    page.reload()
    expect(counter(page)).to_contain_text("Move 2 of 2 · White: G7")
    expect(redo).to_be_disabled()
    user.close()
