"""Feedback (issue 32): a short confirmation (the toast, role=status) after register, create, join, confirm
and resign; the button pressed is busy (disabled and aria-busy) while its request runs.
"""

from __future__ import annotations

import pytest
from playwright.sync_api import Browser, Page, Route, ViewportSize, expect

from tests.web.ui import VIEWPORTS, fill_form, game_id_of, open_browser, register_in_ui, signed_up, tag


def toast_says(page: Page, text: str) -> None:
    toast = page.locator("#toast")
    expect(toast).to_have_attribute("role", "status")
    expect(toast).to_contain_text(text)


def held(page: Page, pattern: str) -> list[Route]:
    """Hold the first POST to `pattern` until `release`: meanwhile the page's busy state shows."""
    routes: list[Route] = []

    def hold(route: Route) -> None:
        if route.request.method == "POST" and not routes:
            routes.append(route)
        else:
            route.continue_()

    page.route(pattern, hold)
    return routes


def release(page: Page, routes: list[Route]) -> None:
    while not routes:
        page.wait_for_timeout(50)
    routes[0].continue_()


@pytest.mark.parametrize("viewport", VIEWPORTS)
def test_each_step_says_it_was_done_and_buttons_are_busy_meanwhile(
    browser: Browser, server: str, viewport: ViewportSize
) -> None:
    t = tag(viewport)
    ann = open_browser(browser, server, f"annfeed{t}", viewport)
    register_in_ui(ann)
    toast_says(ann.page, f"Welcome, annfeed{t}")

    # Create: busy while the request is held, then the toast and the new game's page.
    page = ann.page
    page.goto("/new")
    fill_form(page, {"size": "9", "team": "1"})
    routes = held(page, "**/api/v1/games")
    page.click("#create-submit")
    button = page.locator("#create-submit")
    expect(button).to_be_disabled()
    expect(button).to_have_attribute("aria-busy", "true")
    release(page, routes)
    expect(page.locator(".board")).to_be_visible()
    toast_says(page, "created")
    gid = game_id_of(page)

    # Join on the game page: busy while held, then the toast.
    ben = signed_up(browser, server, f"benfeed{t}", viewport)
    bpage = ben.page
    bpage.goto(f"/games/{gid}")
    join = bpage.locator('.join-buttons button[data-team="2"]')
    pattern = f"**/api/v1/games/{gid}/join"
    routes = held(bpage, pattern)
    join.click()
    expect(join).to_be_disabled()
    expect(join).to_have_attribute("aria-busy", "true")
    release(bpage, routes)
    toast_says(bpage, "You joined the game.")

    for user in (ann, ben):
        user.page.click("#confirm")
        toast_says(user.page, "Confirmed")
    expect(page.locator("#resign")).to_be_visible()

    # Resign (on the player's turn): busy while held, then the toast; the game is over.
    expect(page.locator("#turn")).to_contain_text("Your turn")
    pattern = f"**/api/v1/games/{gid}/resign"
    routes = held(page, pattern)
    page.click("#resign")
    page.click("#confirm-ok")
    resign = page.locator("#resign")
    expect(resign).to_be_disabled()
    expect(resign).to_have_attribute("aria-busy", "true")
    release(page, routes)
    toast_says(page, "You resigned.")
    expect(page.locator("#result-headline")).to_be_visible()
    for user in (ann, ben):
        user.close()
