"""The top bar fits one row at every size. On a phone it holds the brand, the bell and a Menu button (a
disclosure: aria-expanded, aria-controls) that opens the other items; it closes on Escape (focus back on the
button), on a click outside and on navigation. On a desktop every item is in the bar and there is no button.
A guest's name is never a link: a guest's page is theirs alone."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import Browser, Page, ViewportSize, expect

from tests.web.ui import DESKTOP, PHONE, assert_in_viewport, nav, open_browser, signed_up, start_practice

SMALL_PHONE: ViewportSize = {"width": 375, "height": 700}
SIZES = [
    pytest.param(DESKTOP, id="desktop"),
    pytest.param(PHONE, id="phone"),
    pytest.param(SMALL_PHONE, id="phone375"),
]
MEMBER_ITEMS = ["#nav-lobby", "#nav-watch", "#nav-new", "#nav-archive", "#nav-leaderboards", "#nav-dashboard",
                "#nav-settings", "#nav-user", "#logout"]  # fmt: skip
ONE_ROW = 64  # px: the bar's padding and one row of items (44 px buttons on a phone); two rows are taller


def bar_height(page: Page) -> float:
    box = page.locator("header.topbar").bounding_box()
    assert box is not None
    return float(box["height"])


def tag_of(viewport: ViewportSize) -> str:
    return {DESKTOP["width"]: "d", PHONE["width"]: "p"}.get(viewport["width"], "s")


@pytest.mark.parametrize("viewport", SIZES)
def test_the_top_bar_is_one_row_and_the_menu_opens_and_closes(
    browser: Browser, server: str, viewport: ViewportSize
) -> None:
    member = signed_up(browser, server, f"navmenu{tag_of(viewport)}", viewport)
    page = member.page
    page.goto("/watch")
    expect(page.locator("#nav-user")).to_have_text(member.name)
    bell, menu, items = page.locator("#nav-bell"), page.locator("#nav-menu-button"), page.locator("#nav-menu")
    expect(bell).to_be_visible()  # drawn once the session is read: under load after the user's name
    assert_in_viewport(page, page.locator(".brand"), bell)
    assert bar_height(page) < ONE_ROW, f"the top bar is {bar_height(page)} px tall: more than one row"

    if viewport is DESKTOP:
        expect(menu).to_have_count(0)
        for item in MEMBER_ITEMS:
            expect(page.locator(item)).to_be_visible()
        nav(page, "#nav-archive")
        expect(page).to_have_url(re.compile(r"/archive$"))
        # A window made narrow gets the Menu button; wide again, the full bar.
        page.set_viewport_size(SMALL_PHONE)
        expect(menu).to_be_visible()
        expect(page.locator("#nav-archive")).to_be_hidden()
        page.set_viewport_size(DESKTOP)
        expect(menu).to_have_count(0)
        expect(page.locator("#nav-archive")).to_be_visible()
        member.check_no_errors()
        return

    # Closed: only the brand, the bell and the button show; screen readers hear a collapsed "Menu" button.
    expect(page.get_by_role("button", name="Menu", expanded=False)).to_be_visible()
    expect(menu).to_have_attribute("aria-controls", "nav-menu")
    for item in MEMBER_ITEMS:
        expect(page.locator(item)).to_be_hidden()

    # By keyboard: Enter opens it, Tab goes on into its items, Escape closes it and returns to the button.
    menu.focus()
    page.keyboard.press("Enter")
    expect(menu).to_have_attribute("aria-expanded", "true")
    for item in MEMBER_ITEMS:
        expect(page.locator(item)).to_be_visible()
    assert_in_viewport(page, items)
    assert bar_height(page) < ONE_ROW  # the menu drops over the page, the bar itself stays one row
    page.keyboard.press("Tab")
    expect(page.locator("#nav-lobby")).to_be_focused()
    page.keyboard.press("Escape")
    expect(menu).to_have_attribute("aria-expanded", "false")
    expect(items).to_be_hidden()
    expect(menu).to_be_focused()

    # A click outside the bar closes it.
    menu.click()
    expect(items).to_be_visible()
    page.mouse.click(5, viewport["height"] - 5)  # below the open menu
    expect(items).to_be_hidden()

    # Following an item goes there and closes the menu (also when it is the page on screen).
    menu.click()
    page.click("#nav-archive")
    expect(page).to_have_url(re.compile(r"/archive$"))
    expect(menu).to_have_attribute("aria-expanded", "false")
    expect(items).to_be_hidden()
    expect(page.locator("#nav-archive")).to_have_attribute("aria-current", "page")
    nav(page, "#nav-user")
    expect(page).to_have_url(re.compile(rf"/users/{member.name}$"))
    expect(items).to_be_hidden()

    # A visitor's bar: the brand and the button, with Log in behind it.
    member.context.close()
    visitor = open_browser(browser, server, f"navvisitor{tag_of(viewport)}", viewport)
    visitor.page.goto("/watch")
    expect(visitor.page.locator("#nav-menu-button")).to_be_visible()
    expect(visitor.page.locator("#nav-bell")).to_have_count(0)
    assert bar_height(visitor.page) < ONE_ROW
    nav(visitor.page, "#nav-login")
    expect(visitor.page).to_have_url(re.compile(r"/login$"))
    expect(visitor.page.locator("#nav-menu")).to_be_hidden()
    member.check_no_errors()
    visitor.close()


@pytest.mark.parametrize("viewport", [SIZES[0], SIZES[2]])
def test_a_guest_name_is_not_a_link(browser: Browser, server: str, viewport: ViewportSize) -> None:
    visitor = open_browser(browser, server, f"navguest{tag_of(viewport)}", viewport)
    page = visitor.page
    # White (the guest) moves first after the handicap: no engine needed.
    gid = start_practice(page, size="9", colour="white", level="1", handicap="2")
    expect(page.locator("#nav-user")).to_have_text("Guest")
    names = page.locator(".members .name")
    expect(names).to_have_count(2)
    expect(names.filter(has_text="guest-")).to_have_count(1)
    expect(page.locator(".members a")).to_have_count(0)  # neither the guest nor the computer is a link
    game = page.request.get(f"/api/v1/games/{gid}").json()
    assert sorted(p["is_guest"] for p in game["players"]) == [False, True]
    guest = next(p["username"] for p in game["players"] if p["is_guest"])
    current = page.request.get(f"/api/v1/users/{guest}").json()["current"]  # the finding views say it too
    assert [sorted(p["is_guest"] for p in g["players"]) for g in current] == [[False, True]]
    visitor.close()
