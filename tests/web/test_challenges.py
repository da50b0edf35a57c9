"""Challenges and the two-game swap match, at 1280×800 and 390×844: a challenge declined on the dashboard,
then a swap match made on the create form, its two challenges accepted one after the other, and the colours
swapped between the two games."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import Browser, Request, ViewportSize, expect

from tests.web.ui import DESKTOP, VIEWPORTS, assert_in_viewport, nav, signed_up


@pytest.mark.parametrize("viewport", VIEWPORTS)
def test_a_declined_challenge_then_a_swap_match_of_two_games(
    browser: Browser, server: str, viewport: ViewportSize
) -> None:
    t = "d" if viewport is DESKTOP else "p"
    alice, bob = (signed_up(browser, server, f"{name}match{t}", viewport) for name in ("alice", "bob"))
    dashboard = bob.page
    dashboard.goto("/dashboard")
    expect(dashboard.locator("#my-games")).to_contain_text("You are not in any unfinished game")
    games_read: list[str] = []

    def read_a_game(request: Request) -> None:
        if re.search(r"/api/v1/games/\d+$", request.url):
            games_read.append(request.url)

    dashboard.on("request", read_a_game)

    # A challenge reaches bob's dashboard live; he declines it and the game is cancelled.
    declined = alice.call("POST", "/games", {"size": 9, "team": 1, "challenge": bob.name})["id"]
    challenge = dashboard.locator(f'.challenge[data-game="{declined}"]')
    expect(challenge).to_contain_text(f"{alice.name} challenges you")
    # The challenger's name links to their page, as the dashboard names them: no game read to find it.
    expect(challenge.get_by_role("link", name=alice.name)).to_have_attribute("href", f"/users/{alice.name}")
    assert games_read == []
    challenge.get_by_role("button", name="Decline").click()
    dashboard.click("#confirm-ok")
    expect(challenge).to_have_count(0)
    assert alice.call("GET", f"/games/{declined}")["status"] == "cancelled"

    # The swap match: one form, two games, alice Black in the first and White in the second.
    page = alice.page
    page.goto("/new")
    page.fill("#challenge", bob.name)
    page.check("#swap-match")
    page.select_option("#team", "1")
    page.click("#create-submit")
    toast = page.locator("#toast")
    expect(toast).to_have_text(re.compile(r"^Created the swap match: games \d+ and \d+\.$"))
    first, second = (int(n) for n in re.findall(r"\d+", toast.inner_text()))
    expect(page).to_have_url(f"{page.url.split('/games/')[0]}/games/{first}")
    expect(page.locator("#status")).to_contain_text("Waiting for players: 1 of 2 seats taken.")

    for gid in (first, second):
        expect(dashboard.locator(f'.challenge[data-game="{gid}"]')).to_contain_text(
            f"{alice.name} challenges you"
        )
    dashboard.locator(f'.challenge[data-game="{first}"]').get_by_role("button", name="Accept").click()
    expect(dashboard).to_have_url(re.compile(rf"/games/{first}$"))
    for user in (bob, alice):
        user.page.click("#confirm")
    expect(page.locator("#turn")).to_contain_text("Your turn")  # alice is Black in the first game
    expect(dashboard.locator("#turn")).to_contain_text(alice.name)

    nav(dashboard, "#nav-dashboard")
    expect(dashboard.locator(".challenge")).to_have_count(1)
    dashboard.locator(f'.challenge[data-game="{second}"]').get_by_role("button", name="Accept").click()
    expect(dashboard).to_have_url(re.compile(rf"/games/{second}$"))
    dashboard.click("#confirm")
    alice.call("POST", f"/games/{second}/confirm")
    expect(dashboard.locator("#turn")).to_contain_text("Your turn")  # and bob is Black in the second
    expect(dashboard.locator('.team[data-team="1"] .members')).to_contain_text(bob.name)
    expect(dashboard.locator('.team[data-team="2"] .members')).to_contain_text(alice.name)
    dashboard.evaluate("window.scrollTo(0, 0)")
    controls = ("#submit-move", "#pass", "#resign")
    assert_in_viewport(dashboard, dashboard.locator(".board"), *(dashboard.locator(c) for c in controls))
    games = [alice.call("GET", f"/games/{gid}") for gid in (first, second)]
    assert games[0]["match_id"] is not None and games[0]["match_id"] == games[1]["match_id"]
    for user in (alice, bob):
        user.close()
