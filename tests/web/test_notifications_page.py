"""The notifications page, at desktop and phone size: "Mark all read" marks what the member saw (up to the
newest shown) and only once the server has; a notification that arrives while older pages are open goes on
top, and the older pages stay."""

from __future__ import annotations

import json

import pytest
from playwright.sync_api import Browser, Route, ViewportSize, expect

from tests.web.ui import VIEWPORTS, signed_up, tag

PAGE = 30  # pages/notifications.js: notifications a page


@pytest.mark.parametrize("viewport", VIEWPORTS)
def test_mark_all_read_waits_for_the_server(browser: Browser, server: str, viewport: ViewportSize) -> None:
    t = tag(viewport)
    ann, ben = (signed_up(browser, server, f"{name}mark{t}", viewport) for name in ("ann", "ben"))
    for _ in range(2):
        ann.call("POST", "/games", {"size": 9, "team": 1, "challenge": ben.name})
    page = ben.page
    page.goto("/notifications")
    unread = page.locator("#notification-list .notification.unread")
    expect(unread).to_have_count(2)
    newest = int(page.locator("#notification-list .notification").first.get_attribute("data-id") or 0)

    sent: list[object] = []

    def refuse(route: Route) -> None:
        sent.append(json.loads(route.request.post_data or "null"))
        route.fulfill(status=503, json={"error": "unavailable", "message": "try again later"})

    page.route("**/api/v1/me/notifications/read", refuse)
    page.click("#notifications-read-all")
    expect(page.locator("#toast.error")).to_have_text("Try again later.")  # the API's message as a sentence
    expect(unread).to_have_count(2)  # nothing was marked: the list says so
    expect(page.locator("#notifications-read-all")).to_be_enabled()
    assert sent == [{"up_to": newest}]

    page.unroute("**/api/v1/me/notifications/read")
    page.click("#notifications-read-all")
    expect(unread).to_have_count(0)
    expect(page.locator("#bell-count")).to_have_count(0)
    page.reload()
    expect(page.locator("#notification-list .notification")).to_have_count(2)
    expect(unread).to_have_count(0)
    for user in (ann, ben):
        user.close()


@pytest.mark.parametrize("viewport", VIEWPORTS)
def test_a_new_one_goes_on_top_of_the_pages_shown(
    browser: Browser, server: str, viewport: ViewportSize
) -> None:
    t = tag(viewport)
    cat, dan = (signed_up(browser, server, f"{name}pages{t}", viewport) for name in ("cat", "dan"))
    for _ in range(PAGE + 1):
        cat.call("POST", "/games", {"size": 9, "team": 1, "challenge": dan.name})
    page = dan.page
    page.goto("/notifications")
    items = page.locator("#notification-list .notification")
    expect(items).to_have_count(PAGE)
    page.click("#notifications-more")
    expect(items).to_have_count(PAGE + 1)
    expect(page.locator("#notifications-more")).to_be_hidden()

    gid = cat.call("POST", "/games", {"size": 9, "team": 1, "challenge": dan.name})["id"]
    expect(items.first).to_contain_text(f"{cat.name} challenges you to game {gid}")
    expect(items).to_have_count(PAGE + 2)  # the older page is still there
    expect(page.locator("#notification-list .notification.unread")).to_have_count(PAGE + 2)
    for user in (cat, dan):
        user.close()
