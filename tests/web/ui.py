"""Driving the Miai web UI with Playwright: users in their own browser contexts, board clicks, waits."""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Browser, BrowserContext, Page, ViewportSize, expect

from tests.web.support import PASSWORD

PHONE: ViewportSize = {"width": 390, "height": 844}
DESKTOP: ViewportSize = {"width": 1280, "height": 800}
# Every journey at both sizes: `@pytest.mark.parametrize("viewport", VIEWPORTS)`.
VIEWPORTS = [pytest.param(DESKTOP, id="desktop"), pytest.param(PHONE, id="phone")]


def tag(viewport: ViewportSize) -> str:
    """A suffix that keeps user names apart between the two sizes' runs of one test."""
    return "" if viewport is DESKTOP else "p"


@dataclass
class User:
    """One person at one browser: their own context (cookies) and page."""

    name: str
    context: BrowserContext
    page: Page
    errors: list[str] = field(default_factory=list)
    frames: list[str] = field(default_factory=list)  # every websocket frame this browser received
    socket_urls: list[str] = field(default_factory=list)  # every websocket this browser opened
    csrf: str = ""  # the session's CSRF token, once registered (`register_by_api`)

    def check_no_errors(self) -> None:
        assert not self.errors, f"{self.name}'s page raised: {self.errors}"

    def close(self) -> None:
        """The end of a journey: the page raised nothing; the browser context closes."""
        self.check_no_errors()
        self.context.close()

    def call(self, method: str, path: str, body: Any = None) -> Any:
        """The API with this browser's session, as the page itself would call it (like `ApiPlayer.call`)."""
        return api(self, self.csrf, method, path, body)


def open_browser(
    browser: Browser, base: str, name: str, viewport: ViewportSize | None = None, has_touch: bool = False
) -> User:
    """`has_touch`: a touch screen (taps and touch events), as on a phone."""
    context = browser.new_context(base_url=base, viewport=viewport or DESKTOP, has_touch=has_touch)
    context.set_default_timeout(15_000)
    page = context.new_page()
    user = User(name, context, page)
    page.on("pageerror", lambda err: user.errors.append(f"{err}\n{err.stack}"))
    # Whatever the content security policy blocks (a script, a style, a websocket) counts as an error too.
    page.on("console", lambda msg: "Content Security Policy" in msg.text and user.errors.append(msg.text))

    def watch(ws: Any) -> None:
        user.socket_urls.append(ws.url)
        ws.on("framereceived", lambda data: user.frames.append(data if isinstance(data, str) else ""))

    page.on("websocket", watch)
    return user


def nav(page: Page, selector: str) -> None:
    """Click a top-bar item (`#nav-archive`, `#logout`...) as a person would: on a narrow screen the items
    are behind the Menu button (js/navmenu.js), which opens first."""
    expect(page.locator('body[data-ready="true"]')).to_have_count(1)  # the bar is drawn
    menu = page.locator("#nav-menu-button")
    if menu.count() and menu.get_attribute("aria-expanded") != "true":
        menu.click()
    page.click(selector)


def register_in_ui(user: User) -> None:
    page = user.page
    page.goto("/register")
    page.fill("#username", user.name)
    page.fill("#password", PASSWORD)
    page.click("#auth-submit")
    expect(page.locator("#nav-user")).to_have_text(user.name)


def register_by_api(user: User) -> str:
    """Register through the context's own HTTP client (the session cookie lands in the browser context);
    returns the CSRF token for `api()`, kept as `user.csrf` for `user.call()` too."""
    credentials = {"username": user.name, "password": PASSWORD}
    response = user.context.request.post("/api/v1/accounts", data=credentials)
    assert response.status == 201, response.text()
    user.csrf = str(response.json()["csrf_token"])
    return user.csrf


def signed_up(
    browser: Browser, base: str, name: str, viewport: ViewportSize | None = None, has_touch: bool = False
) -> User:
    """A browser whose user `name` has just registered (through the API, so no page was loaded yet)."""
    user = open_browser(browser, base, name, viewport, has_touch)
    register_by_api(user)
    return user


def api(user: User, csrf: str, method: str, path: str, body: Any = None) -> Any:
    """Call the API with the browser context's session cookie, as the page itself would."""
    response = user.context.request.fetch(
        f"/api/v1{path}", method=method, data=body if body is not None else {}, headers={"X-CSRF-Token": csrf}
    )
    assert response.ok, f"{method} {path}: {response.status} {response.text()}"
    return response.json()


def game_id_of(page: Page) -> int:
    match = re.search(r"/games/(\d+)", page.url)
    assert match, page.url
    return int(match.group(1))


def fill_form(page: Page, fields: dict[str, str]) -> None:
    """Set form fields by id, in order (a choice may show more fields): selects choose, inputs are typed."""
    for name, value in fields.items():
        field = page.locator(f"#{name}")
        if field.evaluate("el => el.tagName") == "SELECT":
            field.select_option(value)
        else:
            field.fill(value)


def submit_new_game(
    page: Page, fields: dict[str, str], button: str = "#create-submit", shown: str = ".board"
) -> int:
    """On the open create form: fill `fields`, press `button`; the new game's id once `shown` is visible."""
    fill_form(page, fields)
    page.click(button)
    expect(page.locator(shown)).to_be_visible()
    return game_id_of(page)


def new_game(page: Page, fields: dict[str, str], shown: str = ".board") -> int:
    """A lobby game made on the create page (`fields` by id, as `fill_form`); its id once `shown` shows."""
    page.goto("/new")
    return submit_new_game(page, fields, shown=shown)


def join_and_start(creator: User, other: User, gid: int, team: int) -> None:
    """`other` joins the creator's two-seat game in `team` on its game page, and both press Confirm."""
    other.page.goto(f"/games/{gid}")
    other.page.click(f'.join-buttons button[data-team="{team}"]')
    for user in (creator, other):
        user.page.click("#confirm")


def start_practice(page: Page, mode: str = "computer", **choices: str) -> int:
    """Start a practice game on the create page's practice form: `mode` "computer" or "local", `choices` by
    field id without its "practice-" (size="9", level="1", colour="white", handicap="2"). Returns its id once
    the page says it is the player's turn."""
    page.goto("/new")
    fill_form(page, {"practice-mode": mode, **{f"practice-{name}": value for name, value in choices.items()}})
    page.click("#practice-submit")
    expect(page.locator("#turn")).to_contain_text("Your turn")
    return game_id_of(page)


def start_local_practice(page: Page, **choices: str) -> int:
    """A practice game for one person playing every colour at one screen (`start_practice`)."""
    return start_practice(page, "local", **choices)


def point(page: Page, vertex: str) -> Any:
    """A board point, found by its ARIA label ("E5: empty", "E5: team 1 stone ...")."""
    return page.locator(f'.board [role="gridcell"][aria-label^="{vertex}:"]')


def expect_point(page: Page, vertex: str, says: str) -> None:
    """The point's ARIA label: `expect_point(page, "A2", "team 1 stone (black, square), last move")`."""
    expect(point(page, vertex)).to_have_attribute("aria-label", f"{vertex}: {says}")


def counter(page: Page) -> Any:
    return page.locator("#move-counter")


def play(page: Page, vertex: str, moves_after: int) -> None:
    """Play a point and wait until the page shows the move. Where Submit Move is hidden (practice games, the
    one-click setting) the click plays at once; elsewhere it previews the move and Submit Move plays it."""
    submit = page.locator("#submit-move")
    target = point(page, vertex)
    expect(target).to_be_visible()  # the page is drawn: whether Submit Move shows is decided
    expect(counter(page)).to_be_visible()
    at_once = submit.is_hidden()
    target.click()
    if not at_once:
        expect(submit).to_be_enabled()
        submit.click()
    expect(counter(page)).to_contain_text(f"Move {moves_after} of {moves_after}")


def pass_turn(page: Page, moves_after: int, dialog: bool = True) -> None:
    """Pass, and wait until the page shows it. Between people Pass asks first (`dialog`); in practice games
    it passes at once, as Dgo does."""
    page.click("#pass")
    if dialog:
        expect(page.locator("#confirm-dialog")).to_be_visible()
        page.click("#confirm-ok")
    else:
        expect(page.locator("#confirm-dialog")).to_be_hidden()
    expect(counter(page)).to_contain_text(f"Move {moves_after} of {moves_after}")


def wait_moves(page: Page, n: int) -> None:
    expect(counter(page)).to_contain_text(f"Move {n} of {n}")


def chat(page: Page, channel: str, text: str) -> None:
    page.click(f'.chat .tab[data-channel="{channel}"]')
    page.fill("#chat-input", text)
    page.click(".chat-form button")
    expect(page.locator(".chat-log")).to_contain_text(text)


def board_shot(page: Page, path: Path) -> None:
    page.locator(".board").screenshot(path=str(path))


def assert_in_viewport(page: Page, *locators: Any) -> None:
    """Each element is visible and lies wholly inside the viewport as the page is scrolled now: the user sees
    them all at once, without scrolling (half a pixel of rounding allowed)."""
    size = page.viewport_size
    assert size is not None
    for locator in locators:
        box = None
        for _ in range(50):  # the bar is redrawn whenever a count changes: measure the element drawn last
            expect(locator).to_be_visible()
            box = locator.bounding_box()
            if box is not None:
                break
            page.wait_for_timeout(100)
        assert box is not None, f"{locator} has no box"
        inside = (
            box["x"] >= -0.5
            and box["y"] >= -0.5
            and box["x"] + box["width"] <= size["width"] + 0.5
            and box["y"] + box["height"] <= size["height"] + 0.5
        )
        assert inside, (
            f"{locator} at x={box['x']:.0f} y={box['y']:.0f}, {box['width']:.0f}x{box['height']:.0f},"
            f" is not inside the {size['width']}x{size['height']} viewport"
        )


# The paint of a board's stones: the computed fill of each stone's disc, and the gradient it names.
STONE_PAINT = """(stones) => stones.map((stone) => {
  const disc = stone.querySelector('circle');
  const fill = getComputedStyle(disc).fill;
  const id = (/url\\("?#([^")]+)"?\\)/.exec(fill) || [])[1];
  const paint = id ? document.getElementById(id) : null;
  return {
    fill,
    gradient: paint ? paint.tagName : null,
    stops: [...(paint ? paint.querySelectorAll('stop') : [])].map((s) => s.getAttribute('stop-color')),
    marks: stone.querySelectorAll('path, text').length,
  };
})"""


def stone_paints(page: Page, selector: str = ".board .stone") -> list[dict[str, Any]]:
    """For each stone: its disc's computed `fill`, the `gradient` element it names (radialGradient, or None
    for a flat colour), that gradient's `stops` colours and how many `marks` (team shapes) are drawn on it."""
    return list(page.locator(selector).evaluate_all(STONE_PAINT))
