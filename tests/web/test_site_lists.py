"""A site people choose (issue 32), at desktop and phone size: the home page's pulse (the most watched live
game's board following its moves, quick-start tiles that start a game against the computer in one click, the
recent results with their boards and worded results); a board and a worded result or status on every list
(archive, profile, dashboard); the lobby names an open game by its players."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import Browser, ViewportSize, expect

from tests.web.support import ApiPlayer, Caller, start_game
from tests.web.ui import VIEWPORTS, open_browser, signed_up, tag

COUNTED = re.compile(r"^\s*White wins by 7\.5 points$")  # a stone each, no territory: the komi


def counted_game(black: Caller, white: Caller) -> int:
    """A 9×9 game of two stones that both players pass to its end: counted, its result has a margin (under
    Tromp-Taylor rules every stone counts as it stands: no dead-stone estimate to wait for)."""
    options = {"size": 9, "seconds_per_move": 3600, "preset": "tromp-taylor"}
    gid = start_game([black, white], options)
    for player, move in ((black, "E5"), (white, "C3"), (black, "pass"), (white, "pass")):
        player.call("POST", f"/games/{gid}/moves", {"move": move})
    return gid


@pytest.mark.parametrize("viewport", VIEWPORTS)
def test_the_home_page_follows_the_most_watched_game_and_starts_the_computer_in_one_click(
    browser: Browser, server: str, viewport: ViewportSize
) -> None:
    t = tag(viewport)
    ann, ben = (ApiPlayer.register(server, f"{n}pulse{t}") for n in ("ann", "ben"))
    counted = counted_game(ann, ben)
    resigned = start_game([ann, ben], {"size": 9, "seconds_per_move": 3600})
    ann.play(resigned, "E5")
    ben.call("POST", f"/games/{resigned}/resign", {})
    gid = start_game([ann, ben], {"size": 9, "seconds_per_move": 3600})
    visitor = open_browser(browser, server, f"visitorpulse{t}", viewport)
    watching = visitor.context.new_page()  # a spectator: the most watched game in progress
    watching.goto(f"/games/{gid}")
    expect(watching.locator("#watchers")).to_have_text("1 watching")

    page = visitor.page
    page.goto("/")
    featured = page.locator("#home-featured")
    expect(featured.locator(".game-name")).to_have_text(f"annpulse{t} vs benpulse{t}")
    expect(featured.locator(".spectators")).to_have_text("1 watching")
    board = featured.locator("svg.thumbnail")
    expect(board).to_have_attribute("aria-label", f"Game {gid}: the board after 0 moves")
    ann.play(gid, "E5")
    ben.play(gid, "C3")
    expect(board.locator(".thumb-stone")).to_have_count(2)  # live, over the socket: no reload
    expect(featured.locator(".featured-line")).to_contain_text("Go · 9×9 · unrated · 2 moves")
    watching.close()

    # The recent results: each with its board and its result in words, the margin of a counted one.
    row = page.locator(f'#home-recent li[data-game="{counted}"]')
    expect(row.locator("svg.thumbnail .thumb-stone")).to_have_count(2)
    expect(row.locator(".result-line")).to_have_text(COUNTED)
    row = page.locator(f'#home-recent li[data-game="{resigned}"]')
    expect(row.locator("svg.thumbnail .thumb-stone")).to_have_count(1)
    expect(row.locator(".result-line")).to_have_text(re.compile(r"^\s*Black wins by resignation$"))

    # One click: a 9×9 game against the computer, no account needed.
    expect(page.locator("#home-tiles .tile")).to_have_count(5)
    page.click('#home-tiles button[data-size="9"]')
    expect(page).to_have_url(re.compile(r"/games/\d+$"))
    expect(page.locator("#turn")).to_contain_text("Your turn")
    expect(page.locator('.board [role="gridcell"]')).to_have_count(81)
    expect(page.locator("#nav-user")).to_have_text("Guest")
    visitor.close()


@pytest.mark.parametrize("viewport", VIEWPORTS)
def test_every_list_shows_boards_and_words_and_the_lobby_names_players(
    browser: Browser, server: str, viewport: ViewportSize
) -> None:
    t = tag(viewport)
    cy = signed_up(browser, server, f"cylists{t}", viewport)
    ann, ben = (ApiPlayer.register(server, f"{n}lists{t}") for n in ("ann", "ben"))
    counted = counted_game(cy, ann)
    current = start_game([cy, ann], {"size": 9, "seconds_per_move": 3600})
    cy.call("POST", f"/games/{current}/moves", {"move": "E5"})
    waiting = ann.call("POST", "/games", {"size": 9, "players_per_team": 2, "team": 1})["id"]
    ben.call("POST", f"/games/{waiting}/join", {"team": 2})
    page = cy.page

    page.goto(f"/archive?player={cy.name}")
    row = page.locator(f'#archive-games li[data-game="{counted}"]')
    expect(row.locator("svg.thumbnail .thumb-stone")).to_have_count(2)
    expect(row.locator(".archive-result")).to_have_text(COUNTED)

    page.goto(f"/users/{cy.name}")
    row = page.locator(f'#recent-games li[data-game="{counted}"]')
    expect(row.locator("svg.thumbnail .thumb-stone")).to_have_count(2)
    expect(row.locator(".result-line")).to_have_text(COUNTED)
    row = page.locator(f'#current-games li[data-game="{current}"]')
    expect(row.locator("svg.thumbnail .thumb-stone")).to_have_count(1)

    page.goto("/dashboard")
    row = page.locator(f'#my-games .game-row[data-game="{current}"]')
    expect(row.locator("svg.thumbnail .thumb-stone")).to_have_count(1)
    expect(row.locator(".row-head")).to_contain_text("White to move")  # its state in words

    page.goto("/lobby")
    row = page.locator(f'#open-games .game-row[data-game="{waiting}"]')
    expect(row.locator(".game-name")).to_have_text(f"annlists{t} vs benlists{t}")
    expect(row.locator(".seats")).to_have_text("2 free seats of 4")
    cy.close()
