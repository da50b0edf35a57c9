"""The home page and watching, at desktop and phone size: a member finds a live game of two other players on
the home page (its board in small), opens it, is counted as watching, and sees a move arrive; the watch page
filters; a visitor starts a game against the computer from the home page's form, without an account."""

from __future__ import annotations

import re
from collections.abc import Callable

import pytest
from playwright.sync_api import Browser, ViewportSize, expect

from tests.web.support import ApiPlayer
from tests.web.ui import VIEWPORTS, assert_in_viewport, expect_point, open_browser, signed_up, tag


def live_game(
    server: str, t: str, settle: Callable[[], None] = lambda: None
) -> tuple[ApiPlayer, ApiPlayer, int]:
    """Two players by the API, a public 9×9 game between them, started (after `settle()`, once seated)."""
    ann, ben = (ApiPlayer.register(server, f"{n}home{t}") for n in ("ann", "ben"))
    gid = ann.call("POST", "/games", {"size": 9, "team": 1})["id"]
    ben.call("POST", f"/games/{gid}/join", {"team": 2})
    settle()
    for player in (ann, ben):
        player.call("POST", f"/games/{gid}/confirm")
    return ann, ben, gid


@pytest.mark.parametrize("viewport", VIEWPORTS)
def test_a_member_finds_a_live_game_on_the_home_page_and_watches_a_move_arrive(
    browser: Browser, server: str, viewport: ViewportSize
) -> None:
    t = tag(viewport)
    ann, ben, gid = live_game(server, t)
    ann.play(gid, "E5")
    cy = signed_up(browser, server, f"cyhome{t}", viewport)
    page = cy.page
    waiting = ann.call("POST", "/games", {"size": 13, "team": 1})["id"]  # an open game, to join
    page.goto("/")
    open_row = page.locator(f'#home-open .game-row[data-game="{waiting}"]')
    expect(open_row.get_by_role("button", name="Join any team")).to_be_visible()
    card = page.locator(f'#home-live .live-row[data-game="{gid}"]')
    expect(card).to_contain_text(f"annhome{t}")
    expect(card).to_contain_text(f"benhome{t}")
    expect(card).to_contain_text("Go · 9×9 · unrated · 1 move")  # as the archive words it
    # The preview: ann's one stone, on a 9×9 board.
    thumb = card.locator("svg.thumbnail")
    expect(thumb).to_have_attribute("aria-label", f"Game {gid}: the board after 1 move")
    expect(thumb.locator(".thumb-stone")).to_have_count(1)
    expect(thumb.locator('.thumb-stone[data-team="1"]')).to_have_count(1)
    # A game that starts while the page is open appears without a reload (the lobby feed says so).
    # (After the pings of the seats taken have been answered: only the start's own ping can show it.)
    _, _, started = live_game(server, f"{t}2", lambda: page.wait_for_timeout(1_000))
    new_card = page.locator(f'#home-live .live-row[data-game="{started}"]')
    expect(new_card).to_contain_text("0 moves", timeout=15_000)  # lobby ping + 1 s debounce; polls are 30 s

    watch = card.get_by_role("link", name=f"Watch game {gid}")
    watch.scroll_into_view_if_needed()
    assert_in_viewport(page, thumb, watch)

    watch.click()
    expect(page).to_have_url(re.compile(rf"/games/{gid}$"))
    expect_point(page, "E5", "team 1 stone (black, square), last move")
    expect(page.locator("#watchers")).to_have_text("1 watching")
    ben.play(gid, "C3")
    expect_point(page, "C3", "team 2 stone (white, circle), last move")  # live, no reload

    # Back home, the list counts cy as watching while the game page is open in a second tab.
    other = cy.context.new_page()
    other.goto("/watch?size=9")
    row = other.locator(f'#live-games .live-row[data-game="{gid}"]')
    expect(row).to_contain_text("1 watching")
    expect(row.locator(".thumb-stone")).to_have_count(2)
    other.select_option("#watch-size", "13")
    expect(row).to_have_count(0)
    expect(other).to_have_url(re.compile(r"/watch\?size=13$"))
    other.select_option("#watch-size", "")
    other.select_option("#watch-rated", "false")
    expect(row).to_be_visible()
    other.select_option("#watch-colours", "3")
    expect(row).to_have_count(0)
    page.close()
    other.select_option("#watch-colours", "")
    other.reload()  # the game page closed: nobody watches any more
    expect(row).to_contain_text("0 watching")
    # Other tests leave games on this server: only a filter nothing can match shows the empty list.
    other.goto("/watch?kind=tanbo&colours=3")  # Tanbo is a two-player game
    expect(other.locator("#live-status")).to_have_text("No game in progress matches these filters.")
    other.goto("/watch")
    # Filters that are not choices in the address are left out, not sent to the server.
    other.goto("/watch?size=nine%00&rated=maybe&kind=%ED%A0%80")
    expect(other.locator("#watch-size")).to_have_value("")
    expect(other.locator("#watch-rated")).to_have_value("")
    expect(row).to_be_visible()
    cy.close()


@pytest.mark.parametrize("viewport", VIEWPORTS)
def test_a_visitor_starts_a_game_against_the_computer_from_the_home_page(
    browser: Browser, server: str, viewport: ViewportSize
) -> None:
    visitor = open_browser(browser, server, f"visitorhome{tag(viewport)}", viewport)
    page = visitor.page
    page.goto("/")
    form = page.locator("#home-play #practice-form")
    expect(form).to_contain_text("Play the computer")
    expect(page.locator("#home-open-card")).to_have_count(0)  # joining people's games needs an account
    expect(page.locator("#practice-kind")).to_be_hidden()  # Go against the computer: nothing else to choose
    page.select_option("#practice-size", "9")
    page.select_option("#practice-colour", "white")
    page.select_option("#practice-level", "2")
    page.select_option("#practice-handicap", "2")
    page.locator("#practice-submit").scroll_into_view_if_needed()
    assert_in_viewport(page, page.locator("#practice-submit"))
    page.click("#practice-submit")

    expect(page).to_have_url(re.compile(r"/games/\d+$"))
    expect(page.locator("#nav-user")).to_have_text("Guest")  # a guest session, made by the first game
    expect(page.locator("#turn")).to_contain_text("Your turn")  # White moves first after the handicap
    expect(page.locator(".board .stone")).to_have_count(2)
    expect(page.locator('.board [role="gridcell"]')).to_have_count(81)
    page.goto("/")
    expect(page.locator("#home-mine .your-row")).to_have_count(1)
    expect(page.locator("#home-mine .your-row")).to_contain_text("your turn")
    visitor.close()
