"""Driving games other than Go in the web UI: create and practice forms with a game kind, moves by clicks."""

from __future__ import annotations

from typing import Any

from playwright.sync_api import Page, expect

from tests.web.ui import User, api, counter, game_id_of, point, register_by_api


def sign_up(user: User, one_click: bool = False) -> str:
    """Register through the API; `one_click` plays a move at its last click (else Submit Move follows)."""
    csrf = register_by_api(user)
    if one_click:
        api(user, csrf, "PATCH", "/me/settings", {"one_click": True})
    return csrf


def create_game(page: Page, kind: str, team: int, **options: str) -> int:
    """Create a two-player game of `kind` on the create form, choosing the kind's own options by field id."""
    page.goto("/new")
    page.select_option("#kind", kind)
    for name, value in options.items():
        field = page.locator(f"#kind-{name}")
        if field.evaluate("el => el.tagName") == "SELECT":
            field.select_option(value)
        else:
            field.fill(value)
    page.select_option("#team", str(team))
    page.click("#create-submit")
    expect(page.locator(".board")).to_be_visible()
    return game_id_of(page)


def join_and_start(creator: User, other: User, gid: int, team: int) -> None:
    other.page.goto(f"/games/{gid}")
    other.page.click(f'.join-buttons button[data-team="{team}"]')
    for user in (creator, other):
        user.page.click("#confirm")


def practice(page: Page, kind: str, colour: str, level: int = 1, **options: str) -> int:
    page.goto("/new")
    page.select_option("#practice-kind", kind)
    for name, value in options.items():
        field = page.locator(f"#practice-kind-{name}")
        if field.evaluate("el => el.tagName") == "SELECT":
            field.select_option(value)
        else:
            field.fill(value)
    page.select_option("#practice-mode", "computer")
    page.select_option("#practice-colour", colour)
    page.select_option("#practice-level", str(level))
    page.click("#practice-submit")
    expect(page.locator(".board")).to_be_visible()
    return game_id_of(page)


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
