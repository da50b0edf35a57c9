"""A browser that blocks site data (localStorage and sessionStorage throw on access) still opens games: the
board, the moves and the sound switch work; only what would have been remembered is not."""

from __future__ import annotations

import pytest
from playwright.sync_api import Browser, ViewportSize, expect

from tests.web.support import ApiPlayer, start_game
from tests.web.ui import DESKTOP, PHONE, open_browser, wait_moves

VIEWPORTS: dict[str, ViewportSize] = {"desktop": DESKTOP, "phone": PHONE}

# What Chromium does with "Block third-party cookies and site data" for the page's own storage areas.
BLOCK_STORAGE = """
for (const name of ['localStorage', 'sessionStorage']) {
  Object.defineProperty(window, name, {
    get() { throw new DOMException('The access is denied for this document.', 'SecurityError'); },
  });
}
"""


@pytest.mark.parametrize("viewport", list(VIEWPORTS))
def test_a_visitor_without_site_storage_watches_a_game(browser: Browser, server: str, viewport: str) -> None:
    alice = ApiPlayer.register(server, f"astore{viewport}")
    bob = ApiPlayer.register(server, f"bstore{viewport}")
    gid = start_game([alice, bob], {"size": 9})
    alice.play(gid, "E5")

    visitor = open_browser(browser, server, f"vstore{viewport}", VIEWPORTS[viewport])
    visitor.context.add_init_script(BLOCK_STORAGE)
    page = visitor.page
    page.goto(f"/games/{gid}")
    wait_moves(page, 1)
    expect(page.locator(".board .stone")).to_have_count(1)
    toggle = page.locator("#sound-toggle")
    expect(toggle).to_have_text("Sound on")
    toggle.click()
    expect(toggle).to_have_text("Sound off")  # for this page: nowhere to remember it
    bob.play(gid, "C3")
    wait_moves(page, 2)
    expect(page.locator(".board .stone")).to_have_count(2)
    visitor.close()
