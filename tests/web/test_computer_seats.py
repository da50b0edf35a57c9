"""Computer players in a multi-colour game: the creator seats them from the waiting game's page.

Alice creates a 3-colour 9x9 game, adds a computer to team 2 and another to team 3 (only teams with free seats
are offered), the team list shows them as computers, the game fills, she confirms, it starts, and the two
computers answer her first move by themselves. A visitor who did not create the game is not offered the form.
"""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import Browser, ViewportSize, expect

from tests.web.ui import DESKTOP, PHONE, counter, new_game, signed_up

REPLY_MS = 120_000


def test_creator_adds_computers_to_a_three_colour_game(browser: Browser, server: str) -> None:
    alice, bob = (signed_up(browser, server, name) for name in ("alicebots", "bobbots"))
    page = alice.page
    gid = new_game(page, {"size": "9", "teams": "3", "team": "1"}, shown="#add-computer")
    team_choice = page.locator("#computer-team option")
    expect(team_choice).to_have_text(["White", "Red"])  # team 1's only seat is alice's

    bob.page.goto(f"/games/{gid}")
    expect(bob.page.locator("#join-any")).to_be_visible()
    expect(bob.page.locator("#add-computer")).to_have_count(0)  # only the creator seats computers

    page.select_option("#computer-team", "2")
    page.select_option("#computer-level", "1")
    page.click("#add-computer")
    team2 = page.locator('.team[data-team="2"] .members')
    expect(team2.locator(".tag.computer")).to_have_text("computer")
    expect(team2.locator(".name")).to_have_text("Miai, level 1")  # by engine and level, not its account
    expect(team_choice).to_have_text(["Red"])
    expect(bob.page.locator('.team[data-team="2"] .name')).to_have_text("Miai, level 1")  # live

    page.select_option("#computer-level", "2")
    page.click("#add-computer")
    expect(page.locator('.team[data-team="3"] .name')).to_have_text("Miai, level 2")
    expect(page.locator("#add-computer")).to_have_count(0)  # no free seat left
    expect(page.locator('.team[data-team="3"]')).to_contain_text("✓ confirmed")  # computers confirm at once
    page.click("#confirm")
    expect(page.locator("#turn")).to_contain_text("Your turn")
    expect(counter(page)).to_have_text("Move 0 of 0")

    page.locator('.board [role="gridcell"][aria-label^="E5:"]').click()
    page.click("#submit-move")
    expect(counter(page)).to_contain_text(re.compile(r"^Move 3 of 3 · Red: "), timeout=REPLY_MS)
    expect(page.locator("#turn")).to_contain_text("Your turn")
    expect(page.locator(".board .stone")).to_have_count(3)
    alice.check_no_errors()
    bob.check_no_errors()
    alice.context.close()
    bob.context.close()


@pytest.mark.parametrize("viewport", [DESKTOP, PHONE], ids=["desktop", "phone"])
def test_computers_left_alone_cancel_the_game(browser: Browser, server: str, viewport: ViewportSize) -> None:
    """Decided (issue #24): a game of computers alone never waits or starts; when its last person leaves, it
    is cancelled, and every open page says why."""
    tag = "d" if viewport is DESKTOP else "p"
    alice, bob = (signed_up(browser, server, name + tag, viewport) for name in ("alonealice", "alonebob"))
    page = alice.page
    gid = new_game(page, {"size": "9", "teams": "3", "team": "1"}, shown="#add-computer")
    page.select_option("#computer-team", "2")
    page.select_option("#computer-level", "1")
    page.click("#add-computer")
    # Only once the page has redrawn with team 2 seated is the form's choice ours to make (a later redraw
    # would reset it): then team 3 is the only choice left.
    expect(page.locator("#computer-team option")).to_have_text(["Red"])
    page.select_option("#computer-level", "2")
    page.click("#add-computer")
    expect(page.locator('.team[data-team="2"] .name')).to_have_text("Miai, level 1")
    expect(page.locator("#confirm")).to_be_visible()
    bob.page.goto(f"/games/{gid}")
    expect(bob.page.locator('.team[data-team="3"] .name')).to_have_text("Miai, level 2")
    page.click("#leave")
    expect(page.locator("#confirm-dialog")).to_be_visible()
    page.click("#confirm-ok")
    for user in (alice, bob):
        expect(user.page.locator("#cancelled")).to_have_text(
            "This game was cancelled: nobody was left to play (computers do not play alone)."
        )
    bob.page.goto("/lobby")
    expect(bob.page.locator(f'[href="/games/{gid}"]')).to_have_count(0)  # not in the lobby
    alice.check_no_errors()
    bob.check_no_errors()
    alice.context.close()
    bob.context.close()
