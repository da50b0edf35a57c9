"""Practice journeys without a rough edge (issue 32), at 1280×800 and 390×844:

* back to the start in a game where the computer moves first keeps the game there, with its redo line, until
  the player acts (Redo replays the computer's move), through a reload too; a thinking indicator while the
  computer's move is on its way; Pass without a dialog;
* the practice form's line under Handicap describes the game it creates (komi, who moves first, your colour);
* two passes in a practice game: the count shown with a warning where a border is still open, and Resume;
* Hex, Amazons and Tanbo practice: the board sizes each game offers, and a move played at its last click.
"""

from __future__ import annotations

import re
from typing import Any

import pytest
from playwright.sync_api import Browser, Page, ViewportSize, expect

from tests.web import games_ui
from tests.web.ui import (
    VIEWPORTS,
    counter,
    fill_form,
    game_id_of,
    point,
    signed_up,
    start_local_practice,
    start_practice,
    tag,
)

REPLY_MS = 60_000

# Every text the thinking indicator shows, recorded as the page shows it (a computer's move may be quick).
WATCH_THINKING = """() => {
  window.thinkingSeen = [];
  const el = document.querySelector('#thinking');
  const note = () => { if (!el.hidden && el.textContent) window.thinkingSeen.push(el.textContent); };
  const what = { childList: true, characterData: true, subtree: true, attributes: true };
  new MutationObserver(note).observe(el, what);
}"""


def watch_thinking(page: Page) -> None:
    expect(page.locator("#thinking")).to_have_count(1)
    page.evaluate(WATCH_THINKING)


def thinking_seen(page: Page) -> list[str]:
    return list(page.evaluate("window.thinkingSeen"))


def expect_thinking_shown(page: Page) -> None:
    indicator = page.locator("#thinking")
    expect(indicator).to_have_attribute("role", "status")
    expect(indicator).to_have_attribute("aria-live", "polite")
    assert "Computer is thinking…" in thinking_seen(page), thinking_seen(page)


@pytest.mark.parametrize("viewport", VIEWPORTS)
def test_back_to_the_start_with_the_computer_first_waits_for_redo(
    browser: Browser, server: str, viewport: ViewportSize
) -> None:
    user = signed_up(browser, server, f"edgestart{tag(viewport)}", viewport)
    page = user.page
    start_practice(page, size="7", colour="white", level="1")  # the computer (Black) opens
    opening = counter(page).inner_text()
    assert re.match(r"^Move 1 of 1 · Black: [A-H]\d$", opening), opening
    watch_thinking(page)
    point(page, "B2" if "B2" not in opening else "F6").click()  # one click plays (no Submit in practice)
    expect(counter(page)).to_contain_text(re.compile(r"^Move 3 of 3 · Black: "), timeout=REPLY_MS)
    expect(page.locator("#turn")).to_contain_text("Your turn")
    expect_thinking_shown(page)
    expect(page.locator("#thinking")).to_be_hidden()  # the move came: nothing pending

    page.click("#practice-start")
    expect(counter(page)).to_have_text("Move 0 of 0")
    expect(page.locator(".board .stone")).to_have_count(0)
    held = page.locator("#held")
    expect(held).to_have_text("Back at the start, the computer waits: Redo replays its move.")
    page.wait_for_timeout(2_000)  # it used to play a new opening at once, and the redo line was gone
    expect(counter(page)).to_have_text("Move 0 of 0")
    expect(page.locator("#redo")).to_be_enabled()
    expect(page.locator("#practice-end")).to_be_enabled()
    expect(page.locator("#thinking")).to_be_hidden()
    page.reload()
    expect(counter(page)).to_have_text("Move 0 of 0")
    expect(held).to_be_visible()
    expect(page.locator("#redo")).to_be_enabled()

    page.click("#redo")  # the computer's opening, as it was
    expect(counter(page)).to_have_text(opening)
    expect(page.locator("#turn")).to_contain_text("Your turn")
    expect(held).to_have_count(0)
    page.click("#practice-end")
    expect(counter(page)).to_contain_text(re.compile(r"^Move 3 of 3 · Black: "))
    expect(page.locator("#redo")).to_be_disabled()

    # Pass needs no dialog in a practice game (as in Dgo).
    page.click("#pass")
    expect(page.locator("#move-list li").nth(3)).to_have_text("White pass")
    expect(page.locator("#confirm-dialog")).to_be_hidden()
    user.close()


def hint_and_game(page: Page, user: Any, choices: dict[str, str]) -> tuple[str, dict[str, Any]]:
    """Fill the practice form, read the line under Handicap, start the game: (the line, the game made)."""
    page.goto("/new")
    fill_form(page, {f"practice-{name}": value for name, value in choices.items()})
    hint = page.locator("#practice-handicap-help").inner_text()
    page.click("#practice-submit")
    expect(page.locator(".board")).to_be_visible()
    return hint, user.call("GET", f"/games/{game_id_of(page)}")


@pytest.mark.parametrize("viewport", VIEWPORTS)
def test_the_practice_hint_describes_the_game_it_creates(
    browser: Browser, server: str, viewport: ViewportSize
) -> None:
    """It said "White moves first; komi is 0.5" for every game, while a game without handicap gets komi 6.5
    and Black moves first."""
    user = signed_up(browser, server, f"edgehint{tag(viewport)}", viewport)
    page = user.page
    cases = [
        {"size": "9", "handicap": "0", "colour": "black", "mode": "computer"},
        {"size": "9", "handicap": "3", "colour": "black", "mode": "computer"},
        {"size": "13", "handicap": "2", "colour": "white", "mode": "computer"},
        {"size": "7", "colour": "white", "mode": "computer"},
        {"size": "9", "handicap": "0", "colour": "black", "mode": "local"},
    ]
    for choices in cases:
        hint, game = hint_and_game(page, user, {"mode": choices.pop("mode"), **choices})
        komi = game["rules"]["komi"][1]
        handicap = game["options"]["handicap"] or 0
        first = "White" if handicap >= 2 else "Black"
        moves, to_move = game["moves"], game["position"]["to_move"]
        first_team = moves[0]["team"] if moves else to_move["team"]
        assert first_team == (2 if first == "White" else 1), game
        assert f"{first} moves first" in hint, (hint, game["options"])
        assert f"White's komi is {komi:g}." in hint, (hint, komi)
        if handicap:
            assert f"Black gets {handicap} stones" in hint
        if game["options"]["size"] == 7:
            assert "No handicap on 7×7" in hint
        you = "Black" if game["you"]["team"] == 1 else "White"
        if game["options"]["mode"] == "computer":
            assert f"You play {you}" in hint
            assert ("the computer moves first" in hint) == (you != first), hint
        else:
            assert "You play" not in hint
    user.close()


# Black walls on C, White walls on E: column D belongs to nobody (an open border).
WALLS = [m for row in range(1, 8) for m in (f"C{row}", f"E{row}")]


@pytest.mark.parametrize("viewport", VIEWPORTS)
def test_two_passes_show_the_count_with_an_open_border_and_resume_plays_on(
    browser: Browser, server: str, viewport: ViewportSize
) -> None:
    user = signed_up(browser, server, f"edgecount{tag(viewport)}", viewport)
    page = user.page
    gid = start_local_practice(page, size="7")
    for move in WALLS:
        user.call("POST", f"/games/{gid}/moves", {"move": move})
    page.reload()
    expect(counter(page)).to_contain_text("Move 14 of 14 · White: E7")
    for n in (15, 16):  # two passes, no dialog
        page.click("#pass")
        expect(page.locator("#confirm-dialog")).to_be_hidden()
        if n == 15:
            expect(counter(page)).to_contain_text("Move 15 of 15 · Black: pass")
    expect(page.locator("#result-headline")).to_have_text("White wins by 6.5 points.")
    warning = page.locator("#open-border")
    open_points = "7 points belong to nobody (D1, D2, D3, D4, D5, D6, D7)"
    expect(warning).to_have_text(f"A border is still open: {open_points}. Resume play to close it.")
    expect(page.locator(".board .territory")).not_to_have_count(0)  # the count is shown on the board
    page.click("#resume")
    expect(counter(page)).to_contain_text("Move 15 of 15 · Black: pass")
    expect(page.locator("#turn")).to_contain_text("Your turn")
    expect(page.locator("#result-headline")).to_be_hidden()
    user.close()


@pytest.mark.parametrize("viewport", VIEWPORTS)
def test_other_games_practice_offers_their_sizes_and_plays_at_the_last_click(
    browser: Browser, server: str, viewport: ViewportSize
) -> None:
    """Hex, Amazons and Tanbo practice: the size list is the game's offer (Hex 5 to 19, Amazons 10×10,
    Tanbo 19×19, the sizes the rules allow), and a move plays at its last click, as Go's does, with the
    thinking indicator until the computer's reply."""
    user = signed_up(browser, server, f"edgekinds{tag(viewport)}", viewport)  # no one-click setting
    page = user.page
    page.goto("/new")
    size = page.locator("#practice-size")
    fill_form(page, {"practice-kind": "hex"})
    expect(size.locator("option")).to_have_count(15)
    expect(size).to_have_value("11")
    expect(size.locator("option").first).to_have_text("5×5")
    expect(size).to_be_enabled()
    expect(page.locator("#practice-kind-size")).to_have_count(0)  # one size list, not two
    fill_form(page, {"practice-kind": "amazons"})
    expect(size.locator("option")).to_have_text(["10×10"])
    expect(size).to_be_disabled()
    fill_form(page, {"practice-kind": "tanbo"})
    expect(size.locator("option")).to_have_text(["19×19"])
    fill_form(page, {"practice-kind": "go"})
    expect(size.locator("option")).to_have_text(["7×7", "9×9", "13×13", "19×19"])

    # Hex 5×5: one click plays.
    gid = games_ui.practice(page, "hex", "first", level=1, size="5", opening="none")
    expect(page.locator(".summary")).to_contain_text("5×5")
    games_ui.wait_my_turn(page)
    watch_thinking(page)
    expect(page.locator("#submit-move")).to_be_hidden()
    point(page, "c3").click()
    expect(counter(page)).to_contain_text("Move 2 of 2 · White: ", timeout=REPLY_MS)
    expect_thinking_shown(page)
    assert games_ui.snapshot(user, gid)["moves"][0]["move"] == "c3"

    # Amazons: the third click (the arrow) plays.
    games_ui.practice(page, "amazons", "first", level=1)
    games_ui.wait_my_turn(page)
    watch_thinking(page)
    expect(page.locator("#submit-move")).to_be_hidden()
    for square in ("d1", "d7"):
        point(page, square).click()
    expect(counter(page)).to_have_text("Move 0 of 0")
    point(page, "e6").click()
    expect(counter(page)).to_contain_text("Move 2 of 2 · Black: ", timeout=REPLY_MS)
    expect(page.locator("#move-list li").first).to_have_text("White d1-d7/e6")
    expect_thinking_shown(page)

    # Tanbo: one click plays.
    gid = games_ui.practice(page, "tanbo", "first", level=1)
    games_ui.wait_my_turn(page)
    watch_thinking(page)
    expect(page.locator("#submit-move")).to_be_hidden()
    first = games_ui.snapshot(user, gid)["position"]["legal"][0]
    point(page, first).click()
    expect(counter(page)).to_contain_text("Move 2 of 2 · White: ", timeout=REPLY_MS)
    expect_thinking_shown(page)
    user.close()
