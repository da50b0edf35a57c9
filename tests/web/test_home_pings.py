"""The home page's live lists, at desktop and phone size: a dashboard ping (a move in one of your games)
reloads "your games" alone, a lobby ping (a new open game) the open, live and recent lists alone, a burst of
pings once. On the watch page, a lobby ping keeps the games "More games" fetched."""

from __future__ import annotations

import re
from typing import Any

import pytest
from playwright.sync_api import Browser, Page, Request, ViewportSize, expect

from tests.web.support import ApiPlayer, start_game
from tests.web.ui import VIEWPORTS, signed_up, tag

LISTS = re.compile(r"/api/v1/(dashboard|games|games/live|games/archive)(\?|$)")
QUIET_MS = 2500  # the page waits ~1 s after the last ping, then reads


def record_home_dashboard_reads(page: Page) -> list[str]:
    """A list that grows by one at each /api/v1/dashboard read the home page itself makes (not the nav's
    turn count, which reads it too): told apart by the script that sent the request (Chromium's CDP)."""
    reads: list[str] = []
    cdp = page.context.new_cdp_session(page)

    def sent(event: dict[str, Any]) -> None:
        if not re.search(r"/api/v1/dashboard$", event["request"]["url"]):
            return
        scripts = []
        stack = event.get("initiator", {}).get("stack")
        while stack:  # the call frames, then those of the async callers
            scripts += [frame["url"] for frame in stack["callFrames"]]
            stack = stack.get("parent")
        if any(url.endswith("/pages/home.js") for url in scripts):
            reads.append(event["request"]["url"])

    cdp.on("Network.requestWillBeSent", sent)
    cdp.send("Network.enable")
    return reads


@pytest.mark.parametrize("viewport", VIEWPORTS)
def test_each_ping_reloads_its_own_lists(browser: Browser, server: str, viewport: ViewportSize) -> None:
    t = tag(viewport)
    eve = signed_up(browser, server, f"eveping{t}", viewport)
    fay = ApiPlayer.register(server, f"fayping{t}")
    gid = start_game([eve, fay], {"size": 9})
    page = eve.page
    page.goto("/")
    row = page.locator(f'#home-mine .your-row[data-game="{gid}"]')
    expect(row).to_contain_text("your turn")
    page.wait_for_timeout(QUIET_MS)  # pings of the game's start are over
    read: list[str] = []

    def listed(request: Request) -> None:
        match = LISTS.search(request.url)
        if match:
            read.append(match.group(1))

    page.on("request", listed)
    home_reads = record_home_dashboard_reads(page)
    eve.call("POST", f"/games/{gid}/moves", {"move": "E5"})  # both players' dashboards are pinged
    expect(row).not_to_contain_text("your turn")
    page.wait_for_timeout(QUIET_MS)
    assert set(read) == {"dashboard"}  # (the nav's turn count reads it too)
    assert len(home_reads) == 1
    # A burst: three moves within the second the page waits after a ping, read once.
    home_reads.clear()
    fay.play(gid, "C3")
    eve.call("POST", f"/games/{gid}/moves", {"move": "D4"})
    fay.play(gid, "F5")
    expect(row).to_contain_text("your turn")
    page.wait_for_timeout(QUIET_MS)
    assert len(home_reads) == 1

    read.clear()
    waiting = fay.call("POST", "/games", {"size": 13, "team": 1})["id"]  # a lobby ping
    expect(page.locator(f'#home-open .game-row[data-game="{waiting}"]')).to_be_visible()
    page.wait_for_timeout(QUIET_MS)
    # the open games, the recent results, the live cards and the featured live board (its own read)
    assert sorted(read) == ["games", "games/archive", "games/live", "games/live"]
    eve.close()


@pytest.mark.parametrize("viewport", VIEWPORTS)
def test_a_lobby_ping_keeps_the_games_more_games_fetched(
    browser: Browser, server: str, viewport: ViewportSize
) -> None:
    t = tag(viewport)
    ann, ben = (ApiPlayer.register(server, f"{n}more{t}") for n in ("ann", "ben"))
    for _ in range(21):  # one more than a page of the watch list: 7×7 games, which no other test starts
        start_game([ann, ben], {"size": 7})
    cy = signed_up(browser, server, f"cymore{t}", viewport)
    page = cy.page
    page.goto("/watch?size=7")
    rows = page.locator("#live-games .live-row")
    expect(rows).to_have_count(20)
    page.wait_for_timeout(QUIET_MS)  # the pings of the games' start are over
    page.click("#live-more")
    expect(rows).not_to_have_count(20)
    fetched = rows.count()
    assert fetched > 20
    pings = sum('"lobby"' in frame for frame in cy.frames)
    ann.call("POST", "/games", {"size": 13, "team": 1})  # a new open game: a lobby ping
    page.wait_for_timeout(QUIET_MS)
    assert sum('"lobby"' in frame for frame in cy.frames) > pings  # the ping did arrive
    expect(rows).to_have_count(fetched)  # and the list still holds both pages
    cy.close()


@pytest.mark.parametrize("viewport", VIEWPORTS)
def test_a_failed_dashboard_read_still_lists_the_open_games(
    browser: Browser, server: str, viewport: ViewportSize
) -> None:
    t = tag(viewport)
    gil = signed_up(browser, server, f"gilfail{t}", viewport)
    hal = ApiPlayer.register(server, f"halfail{t}")
    waiting = hal.call("POST", "/games", {"size": 9, "team": 1})["id"]
    page = gil.page
    broken = {"error": "unavailable", "message": "The dashboard is resting."}
    page.route(re.compile(r"/api/v1/dashboard$"), lambda route: route.fulfill(status=503, json=broken))
    page.goto("/")
    expect(page.locator("#home-mine .error")).to_have_text("The dashboard is resting.")
    row = page.locator(f'#home-open .game-row[data-game="{waiting}"]')
    expect(row.get_by_role("button", name="Join any team")).to_be_visible()  # joined nothing, as far as known
    expect(page.locator("#home-open .error")).to_have_count(0)
    gil.close()
