"""Practice against the computer in the browser: automatic replies, undo / redo / start / end with the move
counter at every step, the "Area" territory estimate, and a handicap game.

The computer is Miai's own engine at level 1 (a few seconds per move); its first move may also wait for the
engine's compilation when the numba cache is cold, hence the long first timeout.
"""

from __future__ import annotations

import re
from pathlib import Path

from playwright.sync_api import Browser, Page, expect

from tests.web.ui import counter, expect_point, point, signed_up

FIRST_REPLY_MS = 180_000
REPLY_MS = 60_000
CANDIDATES = ["C3", "G7", "C7", "G3", "E3", "C5", "G5", "E7", "B2", "H8", "B8", "H2"]


def my_move(page: Page, moves_after: int, timeout: float = REPLY_MS) -> str:
    """Play the first empty candidate point with one click (no Submit step in practice games, as in Dgo) and
    wait for the computer's reply; returns the point played."""
    for vertex in CANDIDATES:
        if point(page, vertex).get_attribute("aria-label") == f"{vertex}: empty":
            break
    else:
        raise AssertionError("every candidate point is taken")
    expect(page.locator("#submit-move")).to_be_hidden()
    point(page, vertex).click()
    expect(counter(page)).to_contain_text(
        re.compile(rf"^Move {moves_after} of {moves_after} · White: "), timeout=timeout
    )
    expect(page.locator("#turn")).to_contain_text("Your turn")
    return vertex


def stones(page: Page) -> object:
    return page.locator(".board .stone")


def test_practice_against_the_computer_with_undo_and_area(
    browser: Browser, server: str, artifacts: Path
) -> None:
    user = signed_up(browser, server, "versus")
    page = user.page
    page.goto("/new")
    handicap = page.locator("#practice-handicap")
    page.select_option("#practice-size", "7")
    expect(handicap).to_be_disabled()  # Dgo's rules have no handicap on 7x7
    expect(page.locator("#practice-handicap-help")).to_contain_text("No handicap on 7×7")
    page.select_option("#practice-size", "9")
    expect(handicap).to_be_enabled()
    expect(handicap.locator("option")).to_have_text(["none", *(f"{n} stones" for n in range(2, 5))])
    page.select_option("#practice-level", "1")
    page.click("#practice-submit")
    expect(page.locator("#turn")).to_contain_text("Your turn")
    expect(page.locator('.team[data-team="2"] .members')).to_contain_text("Miai, level 1")
    expect(counter(page)).to_have_text("Move 0 of 0")

    first = my_move(page, 2, FIRST_REPLY_MS)
    second = my_move(page, 4)
    expect(stones(page)).to_have_count(4)

    # Looking back through the history is separate from taking moves back.
    page.click('button[aria-label="Previous move"]')
    expect(counter(page)).to_have_text(f"Move 3 of 4 · Black: {second}")
    page.click('button[aria-label="Last move"]')
    expect(counter(page)).to_contain_text("Move 4 of 4 · White: ")

    page.click("#undo")  # the player's move and the computer's reply go
    expect(counter(page)).to_contain_text("Move 2 of 2 · White: ")
    expect(stones(page)).to_have_count(2)
    expect_point(page, second, "empty")
    expect(page.locator("#turn")).to_contain_text("Your turn")
    page.click("#redo")  # both come back
    expect(counter(page)).to_contain_text("Move 4 of 4 · White: ")
    expect_point(page, second, "team 1 stone (black, square)")
    page.click("#practice-start")
    expect(counter(page)).to_have_text("Move 0 of 0")
    expect(stones(page)).to_have_count(0)
    expect(page.locator("#undo")).to_be_disabled()
    page.click("#practice-end")
    expect(counter(page)).to_contain_text("Move 4 of 4 · White: ")
    expect_point(page, first, "team 1 stone (black, square)")
    expect(page.locator("#redo")).to_be_disabled()

    # Area: the server's estimate shaded on the board, with a score; it follows the game while it is on.
    area, score, shades = (
        page.locator("#area"),
        page.locator("#area-score"),
        page.locator(".board .area-shade"),
    )
    expect(area).to_have_attribute("aria-pressed", "false")
    expect(shades).to_have_count(0)
    area.click()
    expect(area).to_have_attribute("aria-pressed", "true")
    expect(page.locator(".area-box")).to_have_attribute("data-ply", "4")
    expect(score).to_contain_text(
        re.compile(
            r"Estimated score \(area counting\): "
            r"Black [\d.]+, White [\d.]+ \(komi 6\.5\)\."
        )
    )
    # (Four stones into a game, few points are sure yet; the handicap game below checks the shading.)
    page.click('button[aria-label="Previous move"]')  # an earlier position has no estimate
    expect(shades).to_have_count(0)
    expect(score).to_contain_text("go to the last move")
    page.click('button[aria-label="Last move"]')
    expect(page.locator(".area-box")).to_have_attribute("data-ply", "4")
    my_move(page, 6)
    expect(page.locator(".area-box")).to_have_attribute("data-ply", "6")  # refreshed after the reply
    expect(score).to_contain_text("Estimated score")
    page.click("#undo")
    expect(page.locator(".area-box")).to_have_attribute("data-ply", "4")
    area.click()  # off
    expect(area).to_have_attribute("aria-pressed", "false")
    expect(shades).to_have_count(0)
    expect(score).to_have_text("")
    expect(page.locator(".area-box")).to_have_attribute("data-ply", "")
    user.check_no_errors()

    # A handicap game: Black's three stones on Dgo's points, White (the computer) moves first.
    page.goto("/new")
    page.select_option("#practice-size", "9")
    page.select_option("#practice-level", "1")
    page.select_option("#practice-handicap", "3")
    page.click("#practice-submit")
    expect(counter(page)).to_contain_text("Move 1 of 1 · White: ", timeout=REPLY_MS)
    for vertex in ("C3", "G7", "G3"):
        expect_point(page, vertex, "team 1 stone (black, square)")
    expect(stones(page)).to_have_count(4)
    expect(page.locator(".team-head", has=page.locator("text=Black")).first).to_be_visible()
    rules = page.locator("dl.rules")
    expect(rules).to_contain_text("Handicap3")
    expect(rules).to_contain_text("Komi1: 0, 2: 0.5")
    expect(page.locator("#turn")).to_contain_text("Your turn")
    page.click("#area")  # three stones ahead: much of the board is Black's, shaded in Black's colour
    expect(page.locator(".area-box")).to_have_attribute("data-ply", "1")
    page.locator(".board").screenshot(path=str(artifacts / "practice-area.png"))
    black_area = page.locator('.board .area-shade[data-team="1"]')
    assert black_area.count() > page.locator('.board .area-shade[data-team="2"]').count()
    said = page.locator('.board [role="gridcell"][aria-label$=", estimated territory of team 1"]')
    assert said.count() > 15, said.count()  # screen readers hear the estimate too
    assert black_area.count() >= said.count() + 3  # Black's own stones are shaded, not called territory
    expect(score).to_contain_text(re.compile(r"Black leads by [\d.]+\."))
    user.close()
