"""The archive page and `/games/ID?move=N`, at desktop and phone size: a visitor plays the computer to the end
without an account, registers and finds the game in their archive; the archive's filters narrow the list of
games made through the API, live in the URL (the back button brings the earlier filters back), and page."""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Browser, Page, ViewportSize, expect

from tests.web.support import PASSWORD, ApiPlayer, miai_server, start_game
from tests.web.ui import VIEWPORTS, counter, fill_form, nav, open_browser, point, start_practice, tag

REPLY_MS = 180_000  # the computer's first move may wait for the engine's compilation (cold numba cache)
CANDIDATES = ["C3", "G7", "C7", "G3", "E3", "C5", "G5", "E7", "B2", "H8", "B8", "H2"]


@pytest.fixture(scope="module")
def fast_server(chromium: str, tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """A server whose computer thinks a fraction of a second a move, so a practice game ends quickly."""
    with miai_server(tmp_path_factory.mktemp("miai-archive"), MIAI_COMPUTER_SECONDS="0.2") as base:
        yield base


def rows(page: Page) -> Any:
    return page.locator("#archive-games > li")


def expect_games(page: Page, ids: list[int]) -> None:
    """The archive lists exactly these games, in this order (newest first)."""
    expect(rows(page)).to_have_count(len(ids))  # a page's rows arrive together
    assert [int(r.get_attribute("data-game") or 0) for r in rows(page).all()] == ids


def answer_the_computer(page: Page, moves_after: int) -> None:
    """Play the first empty candidate point (one click in practice games) and wait for the reply."""
    vertex = next(v for v in CANDIDATES if point(page, v).get_attribute("aria-label") == f"{v}: empty")
    point(page, vertex).click()
    expect(counter(page)).to_contain_text(f"Move {moves_after} of {moves_after} · White: ", timeout=REPLY_MS)
    expect(page.locator("#turn")).to_contain_text("Your turn")


def pass_to_the_end(page: Page, moves: int) -> int:
    """The visitor passes until the computer passes back: the game ends counted, as a real one does.
    Answers the number of moves the game ended with."""
    for _ in range(60):  # the computer takes what it wants of the board, then answers a pass with a pass
        page.click("#pass")  # at once: no dialog in practice games
        moves += 2  # the pass and the computer's answer
        expect(counter(page)).to_contain_text(f"Move {moves} of {moves} · White: ", timeout=REPLY_MS)
        if "White: pass" in (counter(page).text_content() or ""):
            expect(page.locator("#result-headline")).to_be_visible()
            return moves
        expect(page.locator("#turn")).to_contain_text("Your turn")
    raise AssertionError("the computer never passed back")


@pytest.mark.parametrize("viewport", VIEWPORTS)
def test_a_visitor_plays_the_computer_registers_and_finds_the_game_in_the_archive(
    browser: Browser, fast_server: str, viewport: ViewportSize, artifacts: Path
) -> None:
    name = f"wanderer{tag(viewport)}"
    visitor = open_browser(browser, fast_server, name, viewport)
    page = visitor.page
    game_id = start_practice(page, size="9", level="1")
    expect(page.locator("#nav-user")).to_have_text("Guest")
    for moves_after in (2, 4, 6):
        answer_the_computer(page, moves_after)
    total = pass_to_the_end(page, 6)
    expect(counter(page)).to_contain_text(f"Move {total} of {total} · White: pass")
    expect(page.locator("#result-headline")).to_contain_text("White wins by")

    nav(page, "#nav-register")
    page.fill("#username", name)
    page.fill("#password", PASSWORD)
    page.click("#auth-submit")
    expect(page.locator("#nav-user")).to_have_text(name)

    nav(page, "#nav-archive")
    page.click("#archive-mine")
    expect(page).to_have_url(re.compile(rf"/archive\?player={name}$"))
    expect(page.locator("#archive-player")).to_have_value(name)
    expect_games(page, [game_id])
    row = rows(page).first
    expect(row.locator(".tag.outcome")).to_have_text("lost")
    expect(row.locator(".archive-result")).to_have_text(re.compile(r"^\s*White wins by \d+(\.5)? points?$"))
    expect(row.locator(".archive-kind")).to_have_text(f"Go · 9×9 · unrated · {total} moves")
    expect(row.locator(".archive-players")).to_contain_text(f"Black: {name} · White: Miai, level 1")
    expect(row.locator(f'a[href="/users/{name}"]')).to_be_visible()
    page.screenshot(path=str(artifacts / f"archive-mine-{tag(viewport) or 'd'}.png"))

    row.locator("a.replay").click()  # into the game's history, at its start
    expect(page).to_have_url(re.compile(rf"/games/{game_id}\?move=0$"))
    expect(counter(page)).to_have_text(f"Move 0 of {total}")
    expect(page.locator(".board .stone")).to_have_count(0)
    page.click('button[aria-label="Next move"]')
    expect(counter(page)).to_contain_text(f"Move 1 of {total} · Black: ")
    page.goto(f"/games/{game_id}?move=4")
    expect(counter(page)).to_contain_text(f"Move 4 of {total} · White: ")
    expect(page.locator(".board .stone")).to_have_count(4)
    expect(page.locator('#move-list li[aria-current="step"]')).to_have_attribute("data-ply", "4")
    visitor.close()


def finished_games(t: str, base: str) -> tuple[str, list[int]]:
    """Four finished games of one player (newest last): Go 9×9 won, Go 13×13 lost, Hex lost, and a
    three-colour Go game won, each ended by resignation."""
    ann, bob, cyd = (ApiPlayer.register(base, f"{n}arc{t}") for n in ("ann", "bob", "cyd"))

    won = start_game([ann, bob], {"size": 9})
    ann.play(won, "E5")
    bob.call("POST", f"/games/{won}/resign", {})
    big = start_game([ann, cyd], {"size": 13})
    ann.call("POST", f"/games/{big}/resign", {})
    hexed = start_game([ann, bob], {"kind": "hex", "size": 7})
    ann.call("POST", f"/games/{hexed}/resign", {})
    three = start_game([ann, bob, cyd], {"size": 9, "teams": 3})
    ann.play(three, "E5")
    bob.call("POST", f"/games/{three}/resign", {})
    cyd.call("POST", f"/games/{three}/resign", {})
    return ann.username, [won, big, hexed, three]


def apply(page: Page, **fields: str) -> None:
    """Set filter fields (by name: player, kind, size, ...) and press Show games."""
    fill_form(page, {f"archive-{name}": value for name, value in fields.items()})
    page.click("#archive-apply")


@pytest.mark.parametrize("viewport", VIEWPORTS)
def test_archive_filters_narrow_the_list_and_live_in_the_url(
    browser: Browser, server: str, viewport: ViewportSize
) -> None:
    t = tag(viewport) or "d"
    ann, (won, big, hexed, three) = finished_games(t, server)
    visitor = open_browser(browser, server, f"looker{t}", viewport)
    page = visitor.page
    page.goto(f"/archive?player={ann}")
    expect_games(page, [three, hexed, big, won])
    first = page.locator(f'#archive-games > li[data-game="{won}"]')
    expect(first.locator(".archive-players")).to_have_text(f"Black: {ann} · White: bobarc{t}")
    expect(first.locator(".archive-result")).to_have_text("Black wins by resignation")
    expect(first.locator(".tag.outcome")).to_have_text("won")
    expect(first.locator(".archive-kind")).to_have_text("Go · 9×9 · unrated · 2 moves")
    expect(first.locator("a.sgf")).to_have_attribute("href", f"/api/v1/games/{won}/sgf")
    sgf = visitor.context.request.get(f"/api/v1/games/{won}/sgf")
    assert sgf.ok and sgf.text().startswith("(;") and "[ee]" in sgf.text()
    colourful = page.locator(f'#archive-games > li[data-game="{three}"] .archive-kind')
    expect(colourful).to_contain_text("3 colours")

    apply(page, kind="go")
    expect(page).to_have_url(re.compile(rf"/archive\?player={ann}&kind=go$"))
    expect_games(page, [three, big, won])
    apply(page, size="13")
    expect(page).to_have_url(re.compile(rf"/archive\?player={ann}&kind=go&size=13$"))
    expect_games(page, [big])
    apply(page, size="", colours="3")
    expect(page).to_have_url(re.compile(r"\?player=\w+&kind=go&colours=3$"))
    expect_games(page, [three])
    apply(page, player="", kind="", colours="", result="loss")  # a player's outcome needs the player
    expect(page.locator("#archive-status .error")).to_have_text(
        "Won, lost and drawn games are a player's: choose the player too."
    )
    expect(page).to_have_url(re.compile(r"&kind=go&colours=3$"))
    apply(page, player=ann)
    expect(page).to_have_url(re.compile(rf"/archive\?player={ann}&result=loss$"))
    expect_games(page, [hexed, big])
    expect(rows(page).locator(".tag.outcome")).to_have_text(["lost", "lost"])
    apply(page, result="", opponent=f"bobarc{t}")
    expect(page).to_have_url(re.compile(rf"\?player={ann}&opponent=bobarc{t}$"))
    expect_games(page, [three, hexed, won])
    apply(page, since="2999-01-01")
    expect(rows(page)).to_have_count(0)
    expect(page.locator("#archive-status")).to_have_text("No finished games match these filters.")

    page.go_back()  # the previous filters, in the form and in the list
    expect(page).to_have_url(re.compile(rf"\?player={ann}&opponent=bobarc{t}$"))
    expect(page.locator("#archive-since")).to_have_value("")
    expect_games(page, [three, hexed, won])
    page.go_back()
    expect(page.locator("#archive-result")).to_have_value("loss")
    expect_games(page, [hexed, big])

    # Keyset pages: "More" asks for the next page with the cursor of the last one.
    page.goto(f"/archive?player={ann}&limit=3")
    expect_games(page, [three, hexed, big])
    page.click("#archive-more")
    expect_games(page, [three, hexed, big, won])
    expect(page.locator("#archive-more")).to_be_hidden()

    # Wrong filters get the API's words, not a broken page; the game page ignores a bad move number.
    page.goto("/archive?size=nine")
    expect(page.locator("#archive-status .error")).to_contain_text("size")
    page.goto("/archive?player=nobody%00here")
    expect(page.locator("#archive-status .error")).to_be_visible()
    page.goto(f"/archive?player={ann}&result=win&kind=go")
    expect_games(page, [three, won])
    page.locator(f'#archive-games > li[data-game="{won}"] a.replay').click()
    expect(counter(page)).to_have_text("Move 0 of 2")
    page.goto(f"/games/{won}?move=1")
    expect(counter(page)).to_have_text("Move 1 of 2 · Black: E5")
    page.goto(f"/games/{won}?move=x1")
    expect(counter(page)).to_have_text("Move 2 of 2 · White: resigns")
    page.goto(f"/games/{won}?move=99999")
    expect(counter(page)).to_have_text("Move 2 of 2 · White: resigns")
    visitor.close()


@pytest.mark.parametrize("viewport", VIEWPORTS)
def test_hostile_page_sizes_in_the_address_answer_a_clear_message(
    browser: Browser, server: str, viewport: ViewportSize
) -> None:
    visitor = open_browser(browser, server, f"limits{tag(viewport) or 'd'}", viewport)
    page = visitor.page
    for limit in ("0", "101", "1e9", "%00", "-1", "NaN"):
        page.goto(f"/archive?limit={limit}")
        expect(page.locator("h1")).to_have_text("Archive")  # the page is drawn, its form usable
        expect(page.locator("#archive-status .error")).to_contain_text("limit")
        expect(page.locator("#archive-apply")).to_be_enabled()
    page.goto("/archive?limit=%20")  # blank: the default page
    expect(page.locator("#archive-status .error")).to_have_count(0)
    expect(page.locator("#archive-games")).to_be_attached()
    visitor.close()
