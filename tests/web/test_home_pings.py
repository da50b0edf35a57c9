"""The home page's live lists, at desktop and phone size: a dashboard ping (a move in one of your games)
reloads "your games" alone, a lobby ping (a new open game) the open, live and recent lists alone, a burst of
pings once."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import Browser, Request, ViewportSize, expect

from tests.web.support import ApiPlayer
from tests.web.ui import VIEWPORTS, api, open_browser, register_by_api, tag

LISTS = re.compile(r"/api/v1/(dashboard|games|games/live|games/archive)(\?|$)")
QUIET_MS = 2500  # the page waits ~1 s after the last ping, then reads


@pytest.mark.parametrize("viewport", VIEWPORTS)
def test_each_ping_reloads_its_own_lists(browser: Browser, server: str, viewport: ViewportSize) -> None:
    t = tag(viewport)
    eve = open_browser(browser, server, f"eveping{t}", viewport)
    csrf = register_by_api(eve)
    fay = ApiPlayer.register(server, f"fayping{t}")
    gid = api(eve, csrf, "POST", "/games", {"size": 9, "team": 1})["id"]
    fay.call("POST", f"/games/{gid}/join", {"team": 2})
    api(eve, csrf, "POST", f"/games/{gid}/confirm")
    fay.call("POST", f"/games/{gid}/confirm")
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
    api(eve, csrf, "POST", f"/games/{gid}/moves", {"move": "E5"})  # both players' dashboards are pinged
    expect(row).not_to_contain_text("your turn")
    page.wait_for_timeout(QUIET_MS)
    assert set(read) == {"dashboard"}  # (the nav's turn count reads it too)

    read.clear()
    waiting = fay.call("POST", "/games", {"size": 13, "team": 1})["id"]  # a lobby ping
    expect(page.locator(f'#home-open .game-row[data-game="{waiting}"]')).to_be_visible()
    page.wait_for_timeout(QUIET_MS)
    assert sorted(read) == ["games", "games/archive", "games/live"]
    eve.check_no_errors()
    eve.context.close()
