"""A visitor plays at one screen without an account, then registers and finds the game on their dashboard.

(The full journey against the computer, with the archive, is the home page's browser test.)"""

from __future__ import annotations

from playwright.sync_api import Browser, expect

from tests.web.ui import PASSWORD, open_browser, play


def test_a_visitor_plays_as_a_guest_and_keeps_the_game_by_registering(browser: Browser, server: str) -> None:
    visitor = open_browser(browser, server, "visitor")
    page = visitor.page
    page.goto("/new")
    expect(page.locator("#create-form")).to_have_count(0)  # lobby games need an account
    page.select_option("#practice-mode", "local")
    page.click("#practice-submit")
    expect(page.locator("#turn")).to_contain_text("Your turn")
    play(page, "E5", 1)
    game_url = page.url
    expect(page.locator("#nav-user")).to_have_text("Guest")

    page.click("#nav-register")
    page.fill("#username", "visitor")
    page.fill("#password", PASSWORD)
    page.click("#auth-submit")
    expect(page.locator("#nav-user")).to_have_text("visitor")
    page.goto("/dashboard")
    game_id = game_url.rstrip("/").rsplit("/", 1)[-1]
    expect(page.locator(f'a[href="/games/{game_id}"]').first).to_be_visible()
    visitor.close()
