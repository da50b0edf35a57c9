"""Buttons pressed before the game has arrived (a slow connection): the page keeps the choice and acts on it
when the game is there, without raising."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import Browser, Route, ViewportSize, expect

from tests.web.ui import DESKTOP, PHONE, open_browser, play, register_by_api


@pytest.mark.parametrize("viewport", [DESKTOP, PHONE], ids=["desktop", "phone"])
def test_area_pressed_before_the_game_arrives(browser: Browser, server: str, viewport: ViewportSize) -> None:
    user = open_browser(browser, server, f"earlyarea{viewport['width']}", viewport)
    register_by_api(user)
    page = user.page
    page.goto("/new")
    page.select_option("#practice-mode", "local")
    page.click("#practice-submit")
    expect(page.locator("#turn")).to_contain_text("Your turn")
    play(page, "E5", 1)
    url = page.url

    held: list[Route] = []

    def hold(route: Route) -> None:  # the game's snapshot waits (Playwright wants a Python function here)
        held.append(route)

    snapshot = re.compile(r"/api/v1/games/\d+(\?.*)?$")
    page.route(snapshot, hold)
    page.goto(url)
    page.click("#area")
    expect(page.locator("#area")).to_have_attribute("aria-pressed", "true")
    assert held, "the snapshot was not held back"
    for route in held:
        route.continue_()
    page.unroute(snapshot)
    expect(page.locator("#area-score")).to_contain_text("Estimated score")
    user.check_no_errors()
    user.context.close()
