"""Uploading an SGF record (issue 19), at desktop and phone size: a member uploads a record with a variation
(a file on the desktop, pasted text on the phone), finds it in My games, opens it, steps through the main
line and switches to the variation, whose stone the board then shows."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import Browser, Page, ViewportSize, expect

from tests.web.ui import DESKTOP, VIEWPORTS, counter, nav, point, signed_up, tag

# Black E5, White C7, then Black G7 on the main line (White C3 after it) or Black C6 in the variation.
RECORD = "(;GM[1]FF[4]SZ[9]KM[6.5]PB[Shusaku]PW[Gennan]RE[B+R];B[ee];W[cc](;B[gc];W[cg])(;B[cd]))"


def stone(page: Page, vertex: str) -> None:
    expect(point(page, vertex)).to_have_attribute("aria-label", re.compile(f"^{vertex}: team 1 stone"))


def empty(page: Page, vertex: str) -> None:
    expect(point(page, vertex)).to_have_attribute("aria-label", f"{vertex}: empty")


@pytest.mark.parametrize("viewport", VIEWPORTS)
def test_a_member_uploads_a_record_and_reviews_its_variation(
    browser: Browser, server: str, viewport: ViewportSize
) -> None:
    user = signed_up(browser, server, f"uploader{tag(viewport)}", viewport)
    page = user.page
    page.goto("/archive")
    page.click("#upload summary")
    if viewport is DESKTOP:
        sgf_file = {"name": "game.sgf", "mimeType": "application/x-go-sgf", "buffer": RECORD.encode()}
        page.set_input_files("#upload-file", files=[sgf_file])
    else:
        page.fill("#upload-text", RECORD)
    page.click("#upload-submit")
    expect(page).to_have_url(re.compile(r"/games/\d+\?move=0$"))
    game_id = int(re.search(r"/games/(\d+)", page.url).group(1))  # type: ignore[union-attr]
    expect(page.locator("h1")).to_have_text("Shusaku vs Gennan")

    # In My games, with the record's players.
    nav(page, "#nav-archive")
    page.click("#archive-mine")
    row = page.locator(f'#archive-games > li[data-game="{game_id}"]')
    expect(row.locator(".archive-players")).to_contain_text("Shusaku")
    expect(row.locator(".archive-players")).to_contain_text("Gennan")
    expect(row.locator(".archive-result")).to_have_text("Black wins by resignation")
    row.locator(f'a[href="/games/{game_id}"]').last.click()  # the name (the board thumbnail links there too)

    # The main line, move by move; no move can be played on it.
    expect(counter(page)).to_contain_text("Move 4 of 4")
    expect(page.locator("#uploaded-by")).to_contain_text(f"uploaded by {user.name}")
    page.click('button[aria-label="First move"]')
    expect(counter(page)).to_contain_text("Move 0 of 4")
    page.click('button[aria-label="Next move"]')
    expect(counter(page)).to_contain_text("Move 1 of 4")
    stone(page, "E5")
    page.click('button[aria-label="Next move"]')
    page.click('button[aria-label="Next move"]')
    expect(counter(page)).to_contain_text("Move 3 of 4")
    stone(page, "G7")
    empty(page, "C6")

    # The variation instead of move 3: its stone, not the main line's.
    marker = page.locator('#move-list li[data-ply="3"] .variation-marker')
    expect(marker).to_have_text("◆ C6")
    marker.click()
    expect(counter(page)).to_contain_text("Variation after move 2")
    stone(page, "C6")
    empty(page, "G7")
    expect(page.locator("#move-list ol.variation li.current")).to_have_text(re.compile("C6$"))
    # Back to the main line from its move list.
    page.locator('#move-list li[data-ply="4"] > button').click()
    expect(counter(page)).to_contain_text("Move 4 of 4")
    stone(page, "G7")
    empty(page, "C6")
    expect(page.locator("#submit-move")).to_be_hidden()
    # The uploader counts as the record's player: a quick or a deep engine review.
    expect(page.locator("#ask-review")).to_be_visible()
    expect(page.locator("#ask-deep-review")).to_be_visible()
    user.check_no_errors()
