"""Buttons pressed before the game has arrived (a slow connection): the page keeps the choice and acts on it
when the game is there, without raising."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import Browser, Route, ViewportSize, expect

from tests.web.ui import DESKTOP, PHONE, play, signed_up, start_local_practice


@pytest.mark.parametrize("viewport", [DESKTOP, PHONE], ids=["desktop", "phone"])
def test_area_pressed_before_the_game_arrives(browser: Browser, server: str, viewport: ViewportSize) -> None:
    user = signed_up(browser, server, f"earlyarea{viewport['width']}", viewport)
    page = user.page
    start_local_practice(page)
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
    user.close()
