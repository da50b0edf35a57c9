"""Hex in the browser: a 5×5 game between two people with the swap rule, and a 5×5 game against the computer.

Moves are entered by clicking cells (one player previews and submits, the other plays with one click); the
pages show the team names, the move list in Hex notation, a Swap button only when swapping is legal, no pass
button, and the winner the rules core agrees with.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from playwright.sync_api import Browser, ViewportSize, expect

from miai.core import hex
from tests.web import games_ui
from tests.web.ui import (
    VIEWPORTS,
    assert_in_viewport,
    board_shot,
    counter,
    expect_point,
    join_and_start,
    point,
    tag,
)

# Black (alice) plays b3, White (bob) swaps it to c2, then Black builds column d while White plays column a.
SCRIPT = ["b3", "swap", "d1", "a1", "d2", "a3", "d3", "a4", "d4", "a5", "d5"]


@pytest.mark.parametrize("viewport", VIEWPORTS)
def test_hex_two_players_with_swap(
    browser: Browser, server: str, artifacts: Path, viewport: ViewportSize
) -> None:
    alice = games_ui.sign_up(browser, server, f"alicehex{tag(viewport)}", viewport)
    bob = games_ui.sign_up(browser, server, f"bobhex{tag(viewport)}", viewport, one_click=True)
    gid = games_ui.create_game(alice.page, "hex", 1, size="5", opening="swap")
    expect(alice.page.locator(".summary")).to_contain_text("Hex · 5×5 · swap rule")
    join_and_start(alice, bob, gid, 2)
    expect(alice.page.locator("#turn")).to_contain_text("Your turn (Black)")
    expect(bob.page.locator("#turn")).to_contain_text(f"Black to move: {alice.name}")
    expect(alice.page.locator("#pass")).to_be_hidden()
    expect(alice.page.locator("#swap")).to_have_count(0)
    expect(alice.page.locator(".board")).to_have_attribute("aria-roledescription", "Hex board")
    alice.page.evaluate("window.scrollTo(0, 0)")
    assert_in_viewport(alice.page, alice.page.locator(".board"), alice.page.locator("#submit-move"))

    games_ui.enter(alice.page, ["b3"], 1)
    expect_point(bob.page, "b3", "Black stone, last move")
    expect(bob.page.locator("#swap")).to_be_visible()
    bob.page.click("#swap")
    expect(bob.page.locator("#confirm-title")).to_have_text("Swap?")
    bob.page.click("#confirm-ok")
    expect(counter(alice.page)).to_contain_text("Move 2 of 2 · White: swap")
    expect_point(alice.page, "c2", "White stone, last move")  # b3 mirrored across the long diagonal
    expect_point(alice.page, "b3", "empty")
    expect(alice.page.locator("#turn")).to_contain_text("Your turn (Black)")  # Black moves again

    for ply, move in enumerate(SCRIPT[2:], start=3):
        mover, one_click = (alice, False) if ply % 2 == 1 else (bob, True)
        games_ui.wait_my_turn(mover.page)
        expect(mover.page.locator("#swap")).to_have_count(0)
        games_ui.enter(mover.page, [move], ply, one_click)

    for user in (alice, bob):
        expect(games_ui.headline(user.page)).to_have_text("Black wins: Black joined their two edges.")
        expect(user.page.locator("#move-list li")).to_have_count(len(SCRIPT))
        expect(user.page.locator("#move-list li").nth(1)).to_have_text("White swap")
    expect(alice.page.locator("#move-list li").last).to_have_text("Black d5")
    expect(alice.page.locator(".actions")).to_be_hidden()
    board_shot(alice.page, artifacts / f"hex-5x5-finished{tag(viewport)}.png")

    # History: the first move and the swap, from the move list and the step buttons.
    alice.page.locator("#move-list li").nth(0).locator("button").click()
    expect_point(alice.page, "b3", "Black stone, last move")
    expect_point(alice.page, "d5", "empty")
    alice.page.click('button[aria-label="Next move"]')
    expect_point(alice.page, "c2", "White stone, last move")
    alice.page.click('button[aria-label="Last move"]')
    expect_point(alice.page, "d5", "Black stone, last move")

    final = games_ui.snapshot(alice, gid)
    assert final["result"]["winners"] == [1] and final["result"]["reason"] == "connection"
    for user in (alice, bob):
        user.close()


def test_hex_against_the_computer(browser: Browser, server: str, artifacts: Path) -> None:
    """The human (Black, first) plays the first legal cell of a fixed order down the middle until someone
    connects; the page must name the winner the rules core finds when it replays the record."""
    user = games_ui.sign_up(browser, server, "solohex", one_click=True)
    page = user.page
    gid = games_ui.practice(page, "hex", "first", level=1, size="5", opening="none")
    order = [f"{c}{r}" for c in "cbdae" for r in range(1, 6)]
    plies = 0
    while True:
        expect(page.locator("#turn.mine, #result-headline").first).to_be_visible(timeout=60_000)
        if games_ui.headline(page).is_visible():
            break
        legal = set(games_ui.snapshot(user, gid)["position"]["legal"])
        move = next(cell for cell in order if cell in legal)
        point(page, move).click()
        plies += 1
        expect(point(page, move)).to_have_attribute("aria-label", re.compile(f"^{move}: Black stone"))
        assert plies <= 13, "a 5×5 board has 25 cells"

    record = games_ui.snapshot(user, gid)
    state = hex.new_game(5, hex.Opening.NONE)
    for m in record["moves"]:
        state = state.play(hex.parse_move(m["move"], 5))
    assert state.is_over and state.reason == "connection"
    winner = hex.PLAYER_NAMES[state.winner]
    expect(games_ui.headline(page)).to_have_text(f"{winner} wins: {winner} joined their two edges.")
    expect(page.locator("#move-list li")).to_have_count(len(record["moves"]))
    board_shot(page, artifacts / "hex-vs-computer.png")
    user.close()


# The centre-row ban: Black's first stone may not go on row 3 of 5 (White's may); Black then builds column b.
BAN_SCRIPT = ["b1", "c3", "b2", "e1", "b3", "e2", "b4", "e3", "b5"]


@pytest.mark.parametrize("viewport", VIEWPORTS)
def test_hex_centre_row_ban_to_a_win(browser: Browser, server: str, viewport: ViewportSize) -> None:
    alice = games_ui.sign_up(browser, server, f"alicehexban{tag(viewport)}", viewport)
    bob = games_ui.sign_up(browser, server, f"bobhexban{tag(viewport)}", viewport, one_click=True)
    gid = games_ui.create_game(alice.page, "hex", 1, size="5", opening="centre_row_ban")
    page = alice.page
    expect(page.locator(".summary")).to_contain_text("Hex · 5×5 · no first stone on the centre row")
    join_and_start(alice, bob, gid, 2)
    games_ui.wait_my_turn(page)
    expect(page.locator("#swap")).to_have_count(0)

    # Row 3 is closed to the first stone: the page marks its five cells, says so, and refuses a click there.
    expect(page.locator(".board .banned")).to_have_count(5)
    expect_point(page, "c3", "empty, not allowed now")
    expect_point(page, "c2", "empty")
    point(page, "c3").click()
    expect(page.locator("#hint")).to_contain_text("c3: illegal, the opening rule forbids this cell now")
    expect(page.locator("#submit-move")).to_be_disabled()
    page.evaluate("window.scrollTo(0, 0)")
    assert_in_viewport(page, page.locator(".board"), page.locator("#submit-move"), page.locator("#resign"))

    games_ui.enter(page, [BAN_SCRIPT[0]], 1)
    expect(page.locator(".board .banned")).to_have_count(0)  # the ban is over after the first stone
    for ply, move in enumerate(BAN_SCRIPT[1:], start=2):
        mover, one_click = (alice, False) if ply % 2 == 1 else (bob, True)
        games_ui.enter(mover.page, [move], ply, one_click)
    expect_point(page, "c3", "White stone")
    for user in (alice, bob):
        expect(games_ui.headline(user.page)).to_have_text("Black wins: Black joined their two edges.")
        expect(user.page.locator("#move-list li")).to_have_count(len(BAN_SCRIPT))
    final = games_ui.snapshot(alice, gid)
    assert final["result"]["winners"] == [1] and final["result"]["reason"] == "connection"
    for user in (alice, bob):
        user.close()
