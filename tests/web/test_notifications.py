"""The notification bell, at desktop and phone size: a member is told live (toast and count) that a challenge
arrived, that it is their turn after the opponent's move, and that the game finished; opening one from the
list opens its game, which reads what the bell said about that game (as OGS does), and news about the game
on screen arrives read."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import Browser, ViewportSize, expect

from tests.web.support import start_game
from tests.web.ui import VIEWPORTS, play, signed_up, tag, wait_moves


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
    expect(listed).to_have_count(3)  # the game's "your turn" became its result: one entry per game
    unread = page.locator("#notification-list .notification.unread")
    expect(unread).to_have_count(1)
    expect(unread).to_contain_text(f"{alice.name} challenges you to game {second}")
    expect(listed.nth(1)).to_contain_text(f"Game {gid} has finished: you won")
    expect(listed.filter(has_text="Your turn")).to_have_count(0)
    page.click("#notifications-read-all")
    expect(unread).to_have_count(0)
    expect(count).to_have_count(0)
    expect(page.locator("#notifications-read-all")).to_be_disabled()
    page.reload()
    expect(listed).to_have_count(3)
    expect(count).to_have_count(0)  # read is stored, not only shown
    for user in (alice, bob):
        user.close()


# Every text the toast shows, kept by the page (a toast fades after a few seconds).
RECORD_TOASTS = """() => {
  window.toasts = [];
  const el = document.getElementById('toast');
  new MutationObserver(() => { if (el.classList.contains('show')) window.toasts.push(el.textContent); })
    .observe(el, { attributes: true, childList: true, characterData: true, subtree: true });
}"""


@pytest.mark.parametrize("viewport", VIEWPORTS)
def test_a_game_played_on_screen_is_one_quiet_entry(
    browser: Browser, server: str, viewport: ViewportSize
) -> None:
    """Issue 32: turn after turn in the game open on screen, no toast and no count; the list then holds one
    "your turn" entry for the game, not one per turn. Away from the game, the next turn comes back to that
    entry, unread, with the count on the bell."""
    t = tag(viewport)
    alice, bob = (signed_up(browser, server, f"{name}quiet{t}", viewport) for name in ("alice", "bob"))
    gid = start_game([alice, bob], {"size": 9, "seconds_per_move": 3600})
    page = bob.page
    page.goto(f"/games/{gid}")
    expect(page.locator("#turn")).to_be_visible()
    page.evaluate(RECORD_TOASTS)
    count = page.locator("#bell-count")
    for n, (hers, his) in enumerate([("E5", "C3"), ("G7", "C7"), ("G3", "F6")]):
        alice.call("POST", f"/games/{gid}/moves", {"move": hers})
        wait_moves(page, 2 * n + 1)
        play(page, his, 2 * n + 2)
    expect(count).to_have_count(0)
    assert page.evaluate("window.toasts") == []

    page.goto("/notifications")
    items = page.locator("#notification-list .notification")
    expect(items).to_have_count(1)
    expect(items).to_contain_text(f"Your turn in game {gid}")
    expect(page.locator("#notification-list .notification.unread")).to_have_count(0)
    alice.call("POST", f"/games/{gid}/moves", {"move": "D4"})
    expect(count).to_have_text("1")  # away from the game: the bell counts it, at every size
    expect(page.locator("#nav-bell")).to_be_in_viewport()
    page.reload()
    expect(items).to_have_count(1)
    expect(page.locator("#notification-list .notification.unread")).to_have_count(1)
    for user in (alice, bob):
        user.close()
