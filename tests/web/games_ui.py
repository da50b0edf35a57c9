"""Driving games other than Go in the web UI: create and practice forms with a game kind, moves by clicks."""

from __future__ import annotations

from typing import Any

from playwright.sync_api import Browser, Page, ViewportSize, expect

from tests.web.ui import User, counter, new_game, point, signed_up, submit_new_game


def sign_up(
    browser: Browser, base: str, name: str, viewport: ViewportSize | None = None, one_click: bool = False
) -> User:
    """A user signed up (`ui.signed_up`); `one_click`: a move plays at its last click (no Submit Move)."""
    user = signed_up(browser, base, name, viewport)
    if one_click:
        user.call("PATCH", "/me/settings", {"one_click": True})
    return user


def create_game(page: Page, kind: str, team: int, **options: str) -> int:
    """Create a two-player game of `kind` on the create form, choosing the kind's own options by field id."""
    kind_options = {f"kind-{name}": value for name, value in options.items()}
    return new_game(page, {"kind": kind, **kind_options, "team": str(team)})


def practice(page: Page, kind: str, colour: str, level: int = 1, **options: str) -> int:
    """A practice game of `kind` against the computer; `options` by name: `size` (the form's one size list,
    from the kind's offers) and the kind's own (`opening`)."""
    page.goto("/new")
    size = {"practice-size": options.pop("size")} if "size" in options else {}
    kind_options = {f"practice-kind-{name}": value for name, value in options.items()}
    fields = {"practice-kind": kind, **size, **kind_options, "practice-mode": "computer"}
    fields["practice-colour"] = colour
    return submit_new_game(page, {**fields, "practice-level": str(level)}, "#practice-submit")


def enter(page: Page, clicks: list[str], moves_after: int, one_click: bool = False) -> None:
    """Click the cells of one move; without one-click play, check the preview and press Submit Move."""
    wait_my_turn(page)
    for name in clicks:
        point(page, name).click()
    if not one_click:
        submit = page.locator("#submit-move")
        expect(submit).to_be_enabled()
        submit.click()
    expect(counter(page)).to_contain_text(f"Move {moves_after} of {moves_after}")


def snapshot(user: User, gid: int) -> Any:
    response = user.context.request.get(f"/api/v1/games/{gid}")
    assert response.ok, response.text()
    return response.json()


def wait_my_turn(page: Page) -> None:
    expect(page.locator("#turn")).to_contain_text("Your turn", timeout=60_000)


def headline(page: Page) -> Any:
    return page.locator("#result-headline")
