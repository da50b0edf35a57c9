"""The notification bell, at desktop and phone size: a member is told live (toast and count) that a challenge
arrived, that it is their turn after the opponent's move, and that the game finished; opening one from the
list opens its game, which reads what the bell said about that game (as OGS does), and news about the game
on screen arrives read."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import Browser, ViewportSize, expect

from tests.web.ui import VIEWPORTS, play, signed_up, tag


@pytest.mark.parametrize("viewport", VIEWPORTS)
def test_challenge_turn_and_result_reach_the_bell(
    browser: Browser, server: str, viewport: ViewportSize
) -> None:
    t = tag(viewport)
    alice, bob = (signed_up(browser, server, f"{name}bell{t}", viewport) for name in ("alice", "bob"))
    page = bob.page
    page.goto("/dashboard")
    bell, count, toast = page.locator("#nav-bell"), page.locator("#bell-count"), page.locator("#toast")
    expect(bell).to_be_visible()
    expect(count).to_have_count(0)
    expect(bell).to_be_in_viewport()  # on a phone too, the bell is in the top bar's first screen

    gid = alice.call("POST", "/games", {"size": 9, "team": 1, "challenge": bob.name})["id"]
    expect(toast).to_have_text(f"{alice.name} challenges you to game {gid}")
    expect(count).to_have_text("1")

    bob.call("POST", f"/games/{gid}/join", {"team": 2})
    alice.call("POST", f"/games/{gid}/confirm")
    bob.call("POST", f"/games/{gid}/confirm")
    alice.call("POST", f"/games/{gid}/moves", {"move": "E5"})
    expect(toast).to_have_text(f"Your turn in game {gid}")
    expect(count).to_have_text("2")

    bell.click()
    expect(page).to_have_url(re.compile(r"/notifications$"))
    items = page.locator("#notification-list .notification")
    expect(items).to_have_count(2)
    expect(page.locator("#notification-list .notification.unread")).to_have_count(2)
    expect(items.nth(0)).to_contain_text(f"Your turn in game {gid}")
    expect(items.nth(1)).to_contain_text(f"{alice.name} challenges you to game {gid}")
    items.nth(0).get_by_role("link").click()
    expect(page).to_have_url(re.compile(rf"/games/{gid}$"))
    expect(page.locator("#turn")).to_contain_text("Your turn")
    expect(count).to_have_count(0)  # opening the game read both of its notifications, the challenge too

    play(page, "C3", 2)
    alice.call("POST", f"/games/{gid}/resign")
    expect(page.locator(".result-card")).to_be_visible()
    second = alice.call("POST", "/games", {"size": 9, "team": 1, "challenge": bob.name})["id"]
    expect(toast).to_have_text(f"{alice.name} challenges you to game {second}")
    expect(count).to_have_text("1")  # the result of the game on screen was read as it came; the challenge not
    bell.click()
    listed = page.locator("#notification-list .notification")
    expect(listed).to_have_count(4)
    unread = page.locator("#notification-list .notification.unread")
    expect(unread).to_have_count(1)
    expect(unread).to_contain_text(f"{alice.name} challenges you to game {second}")
    expect(listed.nth(1)).to_contain_text(f"Game {gid} has finished: you won")
    page.click("#notifications-read-all")
    expect(unread).to_have_count(0)
    expect(count).to_have_count(0)
    expect(page.locator("#notifications-read-all")).to_be_disabled()
    page.reload()
    expect(listed).to_have_count(4)
    expect(count).to_have_count(0)  # read is stored, not only shown
    for user in (alice, bob):
        user.close()
