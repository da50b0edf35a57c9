"""The game page as on lichess (issue 32): playing and following never needs scrolling. At 1280×800 the board,
each team's name and clock, the controls, the move list's newest entry and the chat's input are all in view
with the page at its top; on a phone (390×844) the clocks sit above and below the board, the controls and a
strip of moves under it, and the chat is one tap away (the Chat button opens it over the page's foot). For two
colours on the biggest board (19×19), four colours, and a practice game.
"""

from __future__ import annotations

import itertools
from typing import Any

import pytest
from playwright.sync_api import Browser, ViewportSize, expect

from tests.web.support import ApiPlayer, Caller, start_game
from tests.web.ui import DESKTOP, VIEWPORTS, assert_in_viewport, signed_up, tag

LETTERS = "ABCDEFGHJKLMNOPQRSTUVWXYZ"
CLOCK = {"clock": "fischer", "main_time": 600, "increment": 5, "seconds_per_move": 600}
names = (f"fit{n}" for n in itertools.count())
# (size, teams, practice): the biggest board, four colours, a practice game by one person at one screen.
GAMES = [(19, 2, False), (9, 4, False), (9, 2, True)]


def spaced_move(snap: dict[str, Any]) -> str:
    """A Go point two lines from every stone: always legal."""
    size, board = snap["options"]["size"], snap["position"]["board"]
    for r, c in itertools.product(range(0, size, 2), range(0, size, 2)):
        if board[r * size + c] == 0:
            return f"{LETTERS[c]}{r + 1}"
    raise AssertionError("no free point left")


def play_moves(gid: int, seats: list[Any], count: int) -> None:
    for _ in range(count):
        snap = seats[0].call("GET", f"/games/{gid}")
        seat = seats[(snap["to_move"]["team"] - 1) % len(seats)]
        seat.call("POST", f"/games/{gid}/moves", {"move": spaced_move(snap)})


@pytest.mark.parametrize("viewport", VIEWPORTS)
@pytest.mark.parametrize(("size", "teams", "practice"), GAMES, ids=["19x2", "9x4", "practice9"])
def test_playing_and_following_need_no_scrolling(
    browser: Browser, server: str, viewport: ViewportSize, size: int, teams: int, practice: bool
) -> None:
    viewer = signed_up(browser, server, next(names) + tag(viewport), viewport)
    if practice:
        gid = int(viewer.call("POST", "/practice", {"size": size, "mode": "local", "level": 1})["id"])
        seats: list[Caller] = [viewer]
    else:
        seats = [viewer, *(ApiPlayer.register(server, next(names)) for _ in range(teams - 1))]
        gid = start_game(seats, {"size": size, "teams": teams, **CLOCK})
    moves = 4 * teams if size == 9 else 30  # more than the move list shows at once on the big board
    play_moves(gid, seats, moves)
    page = viewer.page
    page.goto(f"/games/{gid}")
    expect(page.locator("#move-counter")).to_contain_text(f"Move {moves} of {moves}")
    expect(page.locator("#turn")).to_contain_text("Your turn")
    assert page.evaluate("window.scrollY") == 0

    clocks = page.locator("#clocks .team-clock")
    if not practice:
        expect(clocks).to_have_count(teams)
    last = page.locator("#move-list li").last
    expect(last).to_have_attribute("data-ply", str(moves))
    controls = [page.locator("#pass"), page.locator("#resign")]
    if not practice:
        controls.append(page.locator("#submit-move"))
    names_and_clocks = [
        part for clock in clocks.all() for part in (clock.locator(".name"), clock.locator(".time"))
    ]
    assert_in_viewport(page, page.locator(".board"), *clocks.all(), *names_and_clocks, *controls, last)

    if not practice and size == 19:  # the biggest board still fills the room it has
        box = page.locator(".board").bounding_box()
        assert box and box["height"] >= (600 if viewport is DESKTOP else 300), box
    chat_input = page.locator("#chat-input")
    if viewport is DESKTOP:
        expect(page.locator("#chat-open")).to_be_hidden()
        assert_in_viewport(page, chat_input)
    else:
        if not practice and teams == 2:  # the viewer's clock below the board, the other team's above it
            board = page.locator(".board").bounding_box()
            top = page.locator("#clocks .clock-row.top .team-clock").bounding_box()
            own = page.locator('#clocks .clock-row.bottom .team-clock[data-team="1"]').bounding_box()
            assert board and top and own
            assert top["y"] + top["height"] <= board["y"] + 0.5 <= own["y"] + 0.5, (top, board, own)
        expect(chat_input).not_to_be_in_viewport()
        page.click("#chat-open")  # one tap
        expect(page.locator("#chat-open")).to_have_attribute("aria-expanded", "true")
        assert_in_viewport(page, chat_input)
        expect(chat_input).to_be_focused()
        page.click("#chat-close")
        expect(page.locator("#chat-open")).to_have_attribute("aria-expanded", "false")
    assert page.evaluate("window.scrollY") == 0
    viewer.close()
