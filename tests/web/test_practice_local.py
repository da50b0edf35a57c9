"""A practice game for two people at one screen: both colours from one page, undo and redo, history."""

from __future__ import annotations

from pathlib import Path

from playwright.sync_api import Browser, expect

from tests.web.ui import counter, expect_point, play, signed_up, start_local_practice


def test_local_practice_game_with_undo_and_redo(browser: Browser, server: str, artifacts: Path) -> None:
    user = signed_up(browser, server, "solo")
    page = user.page
    start_local_practice(page)
    play(page, "E5", 1)
    expect(page.locator("#turn")).to_contain_text("Your turn (White)")  # the same person plays white
    play(page, "D4", 2)
    expect(page.locator('.team[data-team="2"] .members')).to_contain_text("solo")

    page.click("#undo")  # takes back D4 only
    expect(counter(page)).to_contain_text("Move 1 of 1 · Black: E5")
    expect(page.locator(".board .stone")).to_have_count(1)
    expect_point(page, "D4", "empty")
    page.click("#redo")
    expect(counter(page)).to_contain_text("Move 2 of 2 · White: D4")
    page.click("#practice-start")
    expect(counter(page)).to_contain_text("Move 0 of 0")
    expect(page.locator(".board .stone")).to_have_count(0)
    page.click("#practice-end")
    expect(counter(page)).to_contain_text("Move 2 of 2")
    play(page, "C3", 3)  # a new move forgets nothing that is still on the board
    page.click("#undo")
    expect(counter(page)).to_contain_text("Move 2 of 2")
    play(page, "G7", 3)

    page.reload()  # the history, rebuilt from events with undos in them, still steps correctly
    expect(counter(page)).to_contain_text("Move 3 of 3 · Black: G7")
    page.click('button[aria-label="First move"]')
    expect(page.locator(".board .stone")).to_have_count(0)
    page.click('button[aria-label="Next move"]')
    expect_point(page, "E5", "team 1 stone (black, square), last move")
    page.click('button[aria-label="Next move"]')
    expect_point(page, "D4", "team 2 stone (white, circle), last move")
    page.click('button[aria-label="Next move"]')
    expect_point(page, "G7", "team 1 stone (black, square), last move")
    expect_point(page, "C3", "empty")
    page.locator(".board").screenshot(path=str(artifacts / "practice-local.png"))
    user.close()
