"""The dashboard (your turn first, live), challenges (accept / decline), settings and private invite links."""

from __future__ import annotations

from pathlib import Path

from playwright.sync_api import Browser, expect

from tests.web.support import start_game
from tests.web.ui import board_shot, counter, expect_point, new_game, point, signed_up, stone_paints


def test_dashboard_challenges_settings_and_invites(browser: Browser, server: str, artifacts: Path) -> None:
    alice, bob, carol = (signed_up(browser, server, name) for name in ("alicedb", "bobdb", "caroldb"))
    bob.page.goto("/dashboard")
    expect(bob.page.locator("#my-games")).to_contain_text("You are not in any unfinished game")

    # A challenge made in the form reaches bob's dashboard live; he declines it.
    declined = new_game(alice.page, {"challenge": "bobdb", "team": "1"})
    challenge = bob.page.locator(f'.challenge[data-game="{declined}"]')
    expect(challenge).to_contain_text("alicedb challenges you")
    challenge.get_by_role("button", name="Decline").click()
    bob.page.click("#confirm-ok")
    expect(challenge).to_have_count(0)
    expect(alice.page.locator("#status")).to_contain_text("This game was cancelled")

    # The next challenge he accepts: he joins and lands on the game page, which asks him to confirm.
    first = alice.call("POST", "/games", {"size": 9, "team": 1, "challenge": "bobdb"})["id"]
    accepted = bob.page.locator(f'.challenge[data-game="{first}"]')
    accepted.get_by_role("button", name="Accept").click()
    expect(bob.page).to_have_url(f"{server}/games/{first}")
    bob.page.click("#confirm")
    alice.call("POST", f"/games/{first}/confirm")
    expect(bob.page.locator("#turn")).to_contain_text("alicedb")

    # A second game where bob moves first: "your turn" comes first on the dashboard.
    second = start_game([bob, alice], {"size": 9})
    bob.page.click("#nav-dashboard")
    rows = bob.page.locator("#my-games .game-row")
    expect(rows).to_have_count(2)
    expect(rows.nth(0)).to_have_attribute("data-game", str(second))
    expect(rows.nth(0)).to_have_attribute("data-your-turn", "true")
    expect(rows.nth(1)).to_have_attribute("data-your-turn", "false")
    expect(rows.nth(1)).to_contain_text("Black to move")
    expect(bob.page.locator("#nav-dashboard .badge")).to_have_text("1")
    alice.call("POST", f"/games/{first}/moves", {"move": "E5"})  # the dashboard follows live
    expect(bob.page.locator('#my-games .game-row[data-your-turn="true"]')).to_have_count(2)
    expect(bob.page.locator("#nav-dashboard .badge")).to_have_text("2")
    expect(rows.nth(0)).to_have_attribute("data-game", str(second))  # its deadline comes first

    # Settings: a colour-blind-safe palette, no coordinates, one-click play.
    bob.page.click("#nav-settings")
    bob.page.select_option("#palette", "okabe-ito")
    bob.page.uncheck("#coordinates")
    bob.page.check("#one-click")
    bob.page.fill("#email", "bob@example.org")
    bob.page.click("#save-settings")
    expect(bob.page.locator("#toast")).to_have_text("Settings saved.")
    me = bob.call("GET", "/me")["user"]
    assert me["settings"]["palette"] == "okabe-ito" and me["settings"]["one_click"] is True
    assert me["email"] == "bob@example.org"
    bob.page.goto(f"/games/{first}")
    board = bob.page.locator(".board")
    expect(board).to_have_attribute("data-palette", "okabe-ito")
    expect(bob.page.locator(".board .coord")).to_have_count(0)
    expect_point(bob.page, "E5", "team 1 stone (black, square), last move")
    point(bob.page, "C3").click()  # one click plays at once
    expect(counter(bob.page)).to_contain_text("Move 2 of 2 · White: C3")
    expect(bob.page.locator('.board .stone[data-team="2"]')).to_have_count(1)
    (white,) = stone_paints(bob.page, '.board .stone[data-team="2"]')
    assert white["gradient"] == "radialGradient" and "#ffffff" in white["stops"]  # Okabe-Ito's white, lit
    assert white["marks"] == 1  # a colour-blind safe palette: the shapes are on even with two colours
    board_shot(bob.page, artifacts / "okabe-ito-no-coordinates.png")

    # A private game: not in the lobby, readable and joinable only through its invite link.
    private = new_game(alice.page, {"visibility": "private", "team": "1"}, shown="#invite-link")
    invite = alice.page.locator("#invite-link")
    link = invite.input_value()
    assert link.startswith(f"{server}/games/{private}?invite=") and len(link) > len(server) + 20
    carol.page.goto("/lobby")
    expect(carol.page.locator("#open-games > *")).not_to_have_count(0)  # the list (or its empty state) drawn
    expect(carol.page.locator(f'#open-games [data-game="{private}"]')).to_have_count(0)
    carol.page.goto(f"/games/{private}")
    expect(carol.page.locator("main")).to_contain_text("This private game needs its invite link.")
    carol.page.goto(link)
    carol.page.click('.join-buttons button[data-team="2"]')
    expect(carol.page.locator("#confirm")).to_be_visible()
    expect(alice.page.locator("#confirm-deadline")).to_be_visible()
    for user in (alice, bob, carol):
        user.close()
