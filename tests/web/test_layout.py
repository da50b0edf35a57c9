"""The game page fits the window (issue 16), at 1280×800 and 390×844: the board, the clocks and the controls
to play (Submit / Pass / Resign, or a practice game's undo, redo, start, end and Area) are all in view
together without scrolling, for every board size and game kind; the page opens at the top and stays there
while moves are played; the move list's entries neither overlap nor leave the list; and the full-screen
button shows the board with its controls full screen, until Esc or the button again.

Games are made through the API (the browser user is team 1, API players the other teams) and a few moves are
played before the page opens, so that the move list and the history controls have something to show.
"""

from __future__ import annotations

import itertools
from typing import Any

import pytest
from playwright.sync_api import Browser, Locator, Page, ViewportSize, expect

from tests.web.support import ApiPlayer, Caller, start_game
from tests.web.ui import DESKTOP, PHONE, User, assert_in_viewport, point, signed_up

VIEWPORTS: dict[str, ViewportSize] = {"desktop": DESKTOP, "phone": PHONE}
LETTERS = "ABCDEFGHJKLMNOPQRSTUVWXYZ"
CLOCK = {"clock": "fischer", "main_time": 600, "increment": 5, "seconds_per_move": 600}
names = (f"lay{n}" for n in itertools.count())  # every test makes its own users on the shared server

# (kind, size, teams): every Go size, Amazons, Hex from its smallest to its largest, Tanbo, 4 colours of Go.
GAMES = [
    ("go", 7, 2),
    ("go", 9, 2),
    ("go", 13, 2),
    ("go", 19, 2),
    ("amazons", 10, 2),
    ("hex", 5, 2),
    ("hex", 11, 2),
    ("hex", 19, 2),
    ("tanbo", 19, 2),
    ("go", 19, 4),
]
# (kind, size, mode): practice games, by one person at one screen ("local") or against the computer.
PRACTICE = [
    ("go", 7, "local"),
    ("go", 19, "local"),
    ("go", 9, "computer"),
    ("amazons", 10, "local"),
    ("hex", 11, "local"),
    ("tanbo", 19, "local"),
]


@pytest.fixture(params=list(VIEWPORTS))
def viewport(request: pytest.FixtureRequest) -> str:
    return str(request.param)


def signed_up_viewer(browser: Browser, server: str, viewport: str) -> User:
    """The browser user, signed up through the API."""
    return signed_up(browser, server, next(names), VIEWPORTS[viewport])


def spaced_points(size: int) -> list[str]:
    """Go points two lines apart: stones there never touch, so every one of them is legal."""
    return [f"{LETTERS[c]}{r + 1}" for r in range(0, size, 2) for c in range(0, size, 2)]


def next_move(snap: dict[str, Any]) -> str:
    position = snap["position"]
    if snap.get("kind", "go") != "go":
        return str(position["legal"][0])
    size = snap["options"]["size"]
    for vertex in spaced_points(size):
        col, row = LETTERS.index(vertex[0]), int(vertex[1:]) - 1
        if position["board"][row * size + col] == 0:
            return vertex
    raise AssertionError("no free point left")


def seated_game(viewer: User, server: str, kind: str, size: int, teams: int) -> tuple[int, list[Caller]]:
    """A started game with a clock; returns its id and who plays each team, in team order."""
    seats: list[Caller] = [viewer, *(ApiPlayer.register(server, next(names)) for _ in range(teams - 1))]
    return start_game(seats, {"kind": kind, "size": size, "teams": teams, **CLOCK}), seats


def play_moves(gid: int, seats: list[Any], count: int) -> None:
    """`count` moves, each by the seat of the team on move (one seat plays every team in a local game)."""
    for _ in range(count):
        snap = seats[0].call("GET", f"/games/{gid}")
        seat = seats[(snap["to_move"]["team"] - 1) % len(seats)]
        seat.call("POST", f"/games/{gid}/moves", {"move": next_move(snap)})


def open_game(page: Page, gid: int, moves: int) -> None:
    page.goto(f"/games/{gid}")
    expect(page.locator("#move-counter")).to_contain_text(f"Move {moves} of {moves}")
    expect(page.locator("#turn")).to_contain_text("Your turn")


def scroll_y(page: Page) -> float:
    return float(page.evaluate("window.scrollY"))


def board_fills(page: Page) -> None:
    """The board is as large as the window allows, not a thumbnail: its longer side nearly spans the window's
    shorter one (the controls take the rest)."""
    size = page.viewport_size
    assert size is not None
    box = page.locator(".board").bounding_box()
    assert box is not None
    longer, room = max(box["width"], box["height"]), min(size["width"], size["height"])
    assert longer >= 0.8 * room, f"the board is {box['width']:.0f}x{box['height']:.0f} in {size}"


def step_buttons(page: Page) -> list[Locator]:
    return [
        page.get_by_role("button", name=f"{where} move", exact=True)
        for where in ("First", "Previous", "Next", "Last")
    ]


@pytest.mark.parametrize(("kind", "size", "teams"), GAMES, ids=[f"{k}{s}x{t}" for k, s, t in GAMES])
def test_board_clocks_and_controls_fit_the_window(
    browser: Browser, server: str, viewport: str, kind: str, size: int, teams: int
) -> None:
    viewer = signed_up_viewer(browser, server, viewport)
    gid, seats = seated_game(viewer, server, kind, size, teams)
    play_moves(gid, seats, 2 * teams)
    page = viewer.page
    open_game(page, gid, 2 * teams)

    assert scroll_y(page) == 0
    clocks = page.locator("#clocks .team-clock")
    expect(clocks).to_have_count(teams)
    controls = [page.locator("#submit-move"), page.locator("#resign"), page.locator("#fullscreen")]
    if kind == "go":
        controls += [page.locator("#pass"), page.locator("#show-estimate")]
    if teams > 2:
        controls.append(page.locator("#draw"))
    assert_in_viewport(
        page,
        page.locator(".board"),
        page.locator("#turn"),
        *clocks.all(),
        page.locator("#move-counter"),
        *step_buttons(page),
        *controls,
    )
    board_fills(page)
    viewer.close()


@pytest.mark.parametrize(("kind", "size", "mode"), PRACTICE, ids=[f"{k}{s}-{m}" for k, s, m in PRACTICE])
def test_practice_board_and_controls_fit_the_window(
    browser: Browser, server: str, viewport: str, kind: str, size: int, mode: str
) -> None:
    viewer = signed_up_viewer(browser, server, viewport)
    gid = int(viewer.call("POST", "/practice", {"kind": kind, "size": size, "mode": mode, "level": 1})["id"])
    moves = 4 if mode == "local" else 0  # the computer is not waited for: the player moves first
    play_moves(gid, [viewer], moves)
    page = viewer.page
    open_game(page, gid, moves)

    assert scroll_y(page) == 0
    practice = [page.locator(f"#{name}") for name in ("practice-start", "undo", "redo", "practice-end")]
    controls = [page.locator("#resign"), page.locator("#fullscreen")]
    if kind == "go":
        controls += [page.locator("#pass"), page.locator("#area")]
    assert_in_viewport(
        page,
        page.locator(".board"),
        page.locator("#turn"),
        page.locator("#move-counter"),
        *step_buttons(page),
        *practice,
        *controls,
    )
    board_fills(page)
    viewer.close()


def entry_boxes(page: Page) -> dict[str, Any]:
    """The move list's box (what it shows: client size) and every entry's box, in page coordinates."""
    return dict(
        page.evaluate(
            """() => {
              const list = document.querySelector('#move-list');
              const at = (el) => {
                const r = el.getBoundingClientRect();
                return { left: r.left, right: r.right, top: r.top, bottom: r.bottom };
              };
              const box = list.getBoundingClientRect();
              const left = box.left + list.clientLeft;
              return {
                list: { left, right: left + list.clientWidth },
                scrollWidth: list.scrollWidth, clientWidth: list.clientWidth,
                items: [...list.querySelectorAll('li')].map(at),
              };
            }"""
        )
    )


def test_moves_do_not_scroll_the_page_and_the_move_list_does_not_overlap(
    browser: Browser, server: str, viewport: str
) -> None:
    viewer = signed_up_viewer(browser, server, viewport)
    gid, seats = seated_game(viewer, server, "go", 19, 2)
    play_moves(gid, seats, 40)  # more moves than the list shows at once
    page = viewer.page
    open_game(page, gid, 40)
    assert scroll_y(page) == 0

    for moves in (42, 44, 46):
        vertex = next_move(seats[1].call("GET", f"/games/{gid}"))
        point(page, vertex).click()
        page.locator("#submit-move").click()
        expect(page.locator("#move-counter")).to_contain_text(f"Move {moves - 1} of {moves - 1}")
        play_moves(gid, seats[1:], 1)
        expect(page.locator("#move-counter")).to_contain_text(f"Move {moves} of {moves}")
        assert scroll_y(page) == 0, f"the page scrolled by itself after move {moves}"
        assert_in_viewport(
            page, page.locator(".board"), page.locator("#submit-move"), page.locator("#resign")
        )
        # The list scrolled itself (only itself) to the newest move.
        current = page.locator("#move-list li.current")
        expect(current).to_have_attribute("data-ply", str(moves))
        list_box = page.locator("#move-list").bounding_box()
        item_box = current.bounding_box()
        assert list_box and item_box
        assert (
            list_box["y"] - 0.5 <= item_box["y"]
            and item_box["y"] + item_box["height"] <= list_box["y"] + list_box["height"] + 0.5
        )

    boxes = entry_boxes(page)
    assert len(boxes["items"]) == 46
    assert boxes["scrollWidth"] <= boxes["clientWidth"], "the move list runs off sideways"
    for i, item in enumerate(boxes["items"], start=1):
        assert (
            boxes["list"]["left"] - 0.5 <= item["left"] and item["right"] <= boxes["list"]["right"] + 0.5
        ), f"move {i} is cut off by the list's edge: {item} in {boxes['list']}"
    for (i, a), (j, b) in itertools.combinations(enumerate(boxes["items"], start=1), 2):
        apart = a["right"] <= b["left"] + 0.5 or b["right"] <= a["left"] + 0.5
        apart = apart or a["bottom"] <= b["top"] + 0.5 or b["bottom"] <= a["top"] + 0.5
        assert apart, f"moves {i} and {j} overlap: {a} {b}"
    # Two a row: a move and the reply beside it.
    first, second, third = boxes["items"][:3]
    assert (
        first["top"] == second["top"] and first["right"] <= second["left"] and third["top"] >= first["bottom"]
    )
    if viewport == "desktop":  # the chat is in view beside the board, the page unscrolled (issue 32)
        assert_in_viewport(page, page.locator(".board"), page.locator("#chat-input"))
        assert scroll_y(page) == 0
    viewer.close()


def window_holds(page: Page, selector: str) -> bool:
    """Whether the elements lie wholly inside the window (full screen's size, not the emulated viewport's)."""
    return bool(
        page.evaluate(
            """(selector) => [...document.querySelectorAll(selector)].every((el) => {
              const r = el.getBoundingClientRect();
              return r.width > 0 && r.left >= -0.5 && r.top >= -0.5
                && r.right <= innerWidth + 0.5 && r.bottom <= innerHeight + 0.5;
            })""",
            selector,
        )
    )


def test_full_screen_shows_the_board_and_its_controls(browser: Browser, server: str, viewport: str) -> None:
    viewer = signed_up_viewer(browser, server, viewport)
    gid, seats = seated_game(viewer, server, "go", 19, 2)
    play_moves(gid, seats, 2)
    page = viewer.page
    open_game(page, gid, 2)
    button = page.locator("#fullscreen")
    expect(button).to_have_text("Full screen")
    expect(button).to_have_attribute("aria-pressed", "false")

    button.click()
    expect(button).to_have_text("Leave full screen")
    expect(button).to_have_attribute("aria-pressed", "true")
    assert page.evaluate("document.fullscreenElement && document.fullscreenElement.id") == "game-play"
    for selector in (
        ".board",
        "#clocks .team-clock",
        "#turn",
        "#submit-move",
        "#pass",
        "#resign",
        "#fullscreen",
    ):
        assert window_holds(page, selector), f"{selector} is outside the full-screen window"

    # A move can be played full screen.
    vertex = next_move(seats[1].call("GET", f"/games/{gid}"))
    point(page, vertex).click()
    page.locator("#submit-move").click()
    expect(page.locator("#move-counter")).to_contain_text("Move 3 of 3")

    # Esc is the browser's own (headless Chromium does not leave on a synthetic key press): it leaves as
    # document.exitFullscreen() does, and the button follows. The button itself leaves too.
    page.evaluate("document.exitFullscreen()")
    expect(button).to_have_text("Full screen")
    expect(button).to_have_attribute("aria-pressed", "false")
    button.click()
    expect(button).to_have_text("Leave full screen")
    button.click()
    expect(button).to_have_text("Full screen")
    assert page.evaluate("document.fullscreenElement") is None
    assert scroll_y(page) == 0
    assert_in_viewport(page, page.locator(".board"), page.locator("#resign"))
    viewer.close()
