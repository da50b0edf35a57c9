"""An agreed draw in a three-colour game, offered on every team's page (issue 16).

The reported failure: once the last team accepted, every open page showed "undefined is not iterable" and
kept showing an active game, and after a reload the finished game could not be opened at all (the draw's
record had team 0). The game is set up through the API; the offers are made on the pages.
"""

from __future__ import annotations

import pytest
from playwright.sync_api import Browser, ViewportSize, expect

from tests.web.support import start_game
from tests.web.ui import DESKTOP, PHONE, counter, signed_up

HEADLINE = "Black, White and Red agreed to a draw."


@pytest.mark.parametrize("viewport", [DESKTOP, PHONE], ids=["desktop", "phone"])
def test_every_team_offers_a_draw_and_every_page_shows_it(
    browser: Browser, server: str, viewport: ViewportSize
) -> None:
    size = "phone" if viewport is PHONE else "desktop"
    users = [signed_up(browser, server, f"draw{team}{size}", viewport) for team in (1, 2, 3)]
    gid = start_game(users, {"size": 9, "teams": 3})
    for user in users:
        user.page.goto(f"/games/{gid}")
        expect(user.page.locator("#turn")).to_be_visible()

    for user in users[:-1]:
        user.page.click("#draw")
        expect(user.page.locator("#draw")).to_have_text("Withdraw draw offer")  # stored: the next may offer
    expect(users[-1].page.locator(".draw")).to_contain_text("Draw accepted by Black, White; every")
    users[-1].page.click("#draw")  # the last team accepts: the game ends

    for user in users:  # live, on every open page
        page = user.page
        expect(page.locator("#result-headline")).to_have_text(HEADLINE)
        expect(page.locator("#status")).to_have_text("The game has finished.")
        for control in ("#turn", "#submit-move", "#pass", "#resign", "#draw"):
            expect(page.locator(control)).to_be_hidden()  # no move controls remain
        expect(counter(page)).to_have_text("Move 1 of 1 · Remaining teams: agreed to a draw")
        expect(page.locator("#move-list li")).to_have_text(["Remaining teams agreed to a draw"])
        expect(page.locator("#toast.error")).to_have_count(0)

    page = users[1].page  # after a reload the finished game opens and still says it was drawn
    page.reload()
    expect(page.locator("#result-headline")).to_have_text(HEADLINE)
    expect(page.locator("#result-headline")).to_be_visible()
    expect(page.locator("#draw")).to_have_count(0)
    page.click('button[aria-label="First move"]')  # the history holds the draw: back to the empty board
    expect(counter(page)).to_have_text("Move 0 of 1")
    for user in users:
        user.close()
