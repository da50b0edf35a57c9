"""The journeys without a rough edge (issue 32): one name for a game and for each team on every page, a
profile that tells partners from opponents."""

from __future__ import annotations

import pytest
from playwright.sync_api import Browser, ViewportSize, expect

from tests.web.support import ApiPlayer, start_game
from tests.web.ui import VIEWPORTS, signed_up, tag


@pytest.mark.parametrize("viewport", VIEWPORTS)
def test_a_pair_game_is_named_alike_everywhere_and_partners_are_no_opponents(
    browser: Browser, server: str, viewport: ViewportSize
) -> None:
    """ann & ben against cat & dan: cat's profile lists ann and ben as opponents and dan as partner, and the
    dashboard, the profile and the game page name the game and the team on move alike."""
    t = tag(viewport)
    cat = signed_up(browser, server, f"catpair{t}", viewport)
    ann, ben, dan = (ApiPlayer.register(server, f"{n}pair{t}") for n in ("ann", "ben", "dan"))
    options = {"size": 9, "teams": 2, "players_per_team": 2, "seconds_per_move": 3600}
    gid = start_game([ann, cat, ben, dan], options, teams=[1, 2, 1, 2])
    name = f"annpair{t} & benpair{t} vs catpair{t} & danpair{t}"
    page = cat.page

    page.goto(f"/users/{cat.name}")
    item = page.locator(f'#current-games li[data-game="{gid}"]')
    expect(item.locator(".game-name")).to_have_text(name)
    expect(item.locator(".opponents")).to_have_text(f"vs annpair{t}, benpair{t}")
    expect(item.locator(".partners")).to_have_text(f"with danpair{t}")

    page.goto("/dashboard")
    row = page.locator(f'#my-games .game-row[data-game="{gid}"]')
    expect(row.locator(".game-name")).to_have_text(name)
    expect(row).to_contain_text("Black to move")  # ann's team: Black, as on the game page

    row.locator(".game-name").click()
    expect(page.locator("h1")).to_have_text(name)
    expect(page.locator("#turn")).to_contain_text("Black to move")
    cat.close()
