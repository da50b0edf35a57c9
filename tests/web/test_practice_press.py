"""Practice games play as Dgo does: one click (or tap) plays, with no Submit step, and the computer answers;
holding the mouse button or a finger down shows red guide lines through the held point, which follow it;
releasing on a point plays there, releasing off the board, Escape or a cancelled touch plays nothing. The
practice form offers Dgo's handicaps per size, and a 9x9 game with four stones starts with them on
Dgo's points (SPEC §1.9).

The phone runs with a touch screen: taps, and presses as raw touch events (Chrome's DevTools protocol), so
the page sees touch pointers, as on a phone.
"""

from __future__ import annotations

import re
from typing import Any

import pytest
from playwright.sync_api import Browser, Page, ViewportSize, expect

from tests.web.ui import DESKTOP, PHONE, User, counter, expect_point, point, signed_up

FIRST_REPLY_MS = 180_000  # the engine's first move may wait for its compilation
VIEWPORTS = [pytest.param(DESKTOP, False, id="desktop"), pytest.param(PHONE, True, id="phone-touch")]
BLACK = "team 1 stone (black, square)"

# Whether the guide lines run along the row and the column of `vertex`, through its centre, from the first
# point of that row (column) to its last, as the page draws them (client pixels, a tenth of a step's slack).
GUIDES_THROUGH = """(v) => {
  const cells = [...document.querySelectorAll('.board [role="gridcell"]')];
  const cell = (name) => cells.find((c) => c.getAttribute('aria-label').startsWith(`${name}:`));
  const box = (name) => cell(name).getBoundingClientRect();
  const mid = (r) => [r.left + r.width / 2, r.top + r.height / 2];
  const row = document.querySelector('.board .guide .guide-row');
  const col = document.querySelector('.board .guide .guide-col');
  if (!row || !col) return false;
  const n = Number(document.querySelector('.board').dataset.size);
  const last = 'ABCDEFGHJKLMNOPQRSTUVWXYZ'[n - 1];
  const [letter, number] = [v[0], v.slice(1)];
  const [x, y] = mid(box(v));
  const near = (a, b) => Math.abs(a - b) <= box(v).width / 10;
  const r = row.getBoundingClientRect();
  const c = col.getBoundingClientRect();
  return near(r.top + r.height / 2, y) && near(r.left, mid(box(`A${number}`))[0])
    && near(r.right, mid(box(`${last}${number}`))[0])
    && near(c.left + c.width / 2, x) && near(c.top, mid(box(`${letter}${n}`))[1])
    && near(c.bottom, mid(box(`${letter}1`))[1]);
}"""


class Finger:
    """One pointer held on the page: the mouse (button down), or a finger on a touch screen."""

    def __init__(self, user: User, touch: bool) -> None:
        self.page = user.page
        self.touch = user.context.new_cdp_session(self.page) if touch else None
        self.cancelled = False

    def _touch(self, kind: str, points: list[dict[str, float]]) -> None:
        assert self.touch is not None
        self.touch.send("Input.dispatchTouchEvent", {"type": kind, "touchPoints": points})

    def down(self, at: tuple[float, float]) -> None:
        self.cancelled = False
        if self.touch:
            self._touch("touchStart", [{"x": at[0], "y": at[1]}])
        else:
            self.page.mouse.move(*at)
            self.page.mouse.down()

    def move(self, at: tuple[float, float]) -> None:
        if self.touch:
            self._touch("touchMove", [{"x": at[0], "y": at[1]}])
        else:
            self.page.mouse.move(*at, steps=4)

    def up(self) -> None:
        """Lift the finger (none is left after a cancelled touch) or release the button."""
        if self.touch:
            if not self.cancelled:
                self._touch("touchEnd", [])
        else:
            self.page.mouse.up()

    def cancel(self) -> None:
        """A touch the system takes away; with the mouse, Escape while the button is still down."""
        if self.touch:
            self._touch("touchCancel", [])
            self.cancelled = True
        else:
            self.page.keyboard.press("Escape")


def centre(locator: Any) -> tuple[float, float]:
    box = locator.bounding_box()
    assert box is not None
    return box["x"] + box["width"] / 2, box["y"] + box["height"] / 2


def expect_guides_through(page: Page, vertex: str) -> None:
    expect(page.locator(".board .guide")).to_be_visible()
    page.wait_for_function(GUIDES_THROUGH, arg=vertex, timeout=5_000)


def practice_page(
    browser: Browser, server: str, name: str, viewport: ViewportSize, touch: bool, **body: Any
) -> User:
    user = signed_up(browser, server, name, viewport, has_touch=touch)
    gid = user.call("POST", "/practice", {"size": 9, **body})["id"]
    user.page.goto(f"/games/{gid}")
    expect(user.page.locator("#turn")).to_contain_text("Your turn")
    return user


@pytest.mark.parametrize(("viewport", "touch"), VIEWPORTS)
def test_one_click_plays_and_the_computer_answers(
    browser: Browser, server: str, viewport: ViewportSize, touch: bool
) -> None:
    user = practice_page(browser, server, f"oneclick{viewport['width']}", viewport, touch, colour="black")
    page = user.page
    submit = page.locator("#submit-move")
    expect(submit).to_be_hidden()  # nothing to submit: the click is the move
    if touch:
        point(page, "E5").tap()
    else:
        point(page, "E5").click()
    expect(counter(page)).to_contain_text(re.compile(r"^Move 2 of 2 · White: "), timeout=FIRST_REPLY_MS)
    expect_point(page, "E5", BLACK)
    expect(page.locator(".board .stone")).to_have_count(2)
    expect(page.locator("#turn")).to_contain_text("Your turn")
    expect(submit).to_be_hidden()
    expect(page.locator(".board .guide")).to_have_count(0)  # the press is over
    user.close()


@pytest.mark.parametrize(("viewport", "touch"), VIEWPORTS)
def test_holding_shows_guide_lines_and_only_a_release_on_the_board_plays(
    browser: Browser, server: str, viewport: ViewportSize, touch: bool
) -> None:
    user = practice_page(browser, server, f"hold{viewport['width']}", viewport, touch, mode="local")
    page = user.page
    guide, stones = page.locator(".board .guide"), page.locator(".board .stone")
    finger = Finger(user, touch)
    expect(guide).to_have_count(0)

    # Held: red lines along C3's row and column; they follow the pointer to G7; off the board they go.
    finger.down(centre(point(page, "C3")))
    expect_guides_through(page, "C3")
    expect(guide).to_have_attribute("stroke", re.compile(r"^#d"))  # red
    finger.move(centre(point(page, "G7")))
    expect_guides_through(page, "G7")
    finger.move(centre(counter(page)))  # off the board, still held
    expect(guide).to_have_count(0)
    finger.up()  # released off the board: nothing is played
    expect(counter(page)).to_have_text("Move 0 of 0")

    # Escape (mouse) or a cancelled touch drops the press: releasing on E5 afterwards plays nothing.
    finger.down(centre(point(page, "E5")))
    expect_guides_through(page, "E5")
    finger.cancel()
    expect(guide).to_have_count(0)
    finger.up()

    # Pressed on C3, moved to D4, released there: D4 is played, and it is the only move.
    finger.down(centre(point(page, "C3")))
    expect_guides_through(page, "C3")
    finger.move(centre(point(page, "D4")))
    expect_guides_through(page, "D4")
    finger.up()
    expect(counter(page)).to_have_text("Move 1 of 1 · Black: D4")
    expect_point(page, "C3", "empty")
    expect_point(page, "E5", "empty")
    expect(stones).to_have_count(1)
    expect(guide).to_have_count(0)
    user.close()


@pytest.mark.parametrize(("viewport", "touch"), VIEWPORTS)
def test_practice_form_offers_dgo_handicaps_and_four_stones_go_on_dgo_points(
    browser: Browser, server: str, viewport: ViewportSize, touch: bool
) -> None:
    user = signed_up(browser, server, f"handicaps{viewport['width']}", viewport, has_touch=touch)
    page = user.page
    page.goto("/new")
    handicap = page.locator("#practice-handicap")
    for size, most in (("7", 0), ("9", 4), ("13", 5), ("19", 9), ("9", 4)):
        page.select_option("#practice-size", size)
        expect(handicap.locator("option")).to_have_text(
            ["none", *(f"{n} stones" for n in range(2, most + 1))]
        )
        if most:
            expect(handicap).to_be_enabled()
        else:
            expect(handicap).to_be_disabled()
            expect(page.locator("#practice-handicap-help")).to_contain_text("No handicap on 7×7")
    page.select_option("#practice-mode", "local")
    page.select_option("#practice-handicap", "4")
    page.click("#practice-submit")
    expect(page.locator("#turn")).to_contain_text("Your turn (White)")  # White moves first
    expect(counter(page)).to_have_text("Move 0 of 0")
    for vertex in ("C3", "C7", "G3", "G7"):  # SPEC §1.9: 9x9, four stones
        expect_point(page, vertex, BLACK)
    expect(page.locator(".board .stone")).to_have_count(4)
    expect(page.locator("dl.rules")).to_contain_text("Handicap4")
    user.close()
