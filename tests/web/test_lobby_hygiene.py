"""What players see of seat order and lobby hygiene (issue 16, SPEC G17): a player who chose no team is shown
as not yet placed and ends up after those who chose the team; a player removed for not confirming is told why,
on the game page and the dashboard; a challenge shows who it is for, with Accept for them and no join buttons
for anyone else. Each at desktop and phone size."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from playwright.sync_api import Browser, Page, ViewportSize, expect

from tests.web.support import ApiPlayer, miai_server
from tests.web.ui import DESKTOP, PHONE, signed_up

VIEWPORTS = pytest.mark.parametrize("viewport", [DESKTOP, PHONE], ids=["desktop", "phone"])
CONFIRM_WINDOW = 5  # seconds, on the server of the removal test


def short(viewport: ViewportSize) -> str:
    return "p" if viewport == PHONE else "d"


def scroll_to(page: Page, selector: str) -> None:
    """Scroll an element into view in one step (a live redraw may replace it at any moment)."""
    page.evaluate("(sel) => document.querySelector(sel).scrollIntoView({ block: 'center' })", selector)


@pytest.fixture(scope="module")
def quick_server(chromium: str, tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """A server whose confirmation window closes after a few seconds."""
    with miai_server(tmp_path_factory.mktemp("miai-quick"), MIAI_CONFIRM_WINDOW=str(CONFIRM_WINDOW)) as base:
        yield base


@VIEWPORTS
def test_a_player_without_a_team_is_shown_unplaced_then_after_those_who_chose(
    browser: Browser, server: str, viewport: ViewportSize
) -> None:
    tag = short(viewport)
    bob = signed_up(browser, server, f"g17bob{tag}", viewport)
    alice, carol, dave = (ApiPlayer.register(server, f"g17{n}{tag}") for n in ("alice", "carol", "dave"))
    gid = alice.call("POST", "/games", {"size": 9, "players_per_team": 2, "team": 1})["id"]
    page = bob.page
    page.goto(f"/games/{gid}")
    page.click("#join-any")
    unplaced = page.locator("#unplaced")
    expect(unplaced).to_contain_text("Any team — placed when the game fills")
    scroll_to(page, "#unplaced")
    expect(unplaced).to_be_in_viewport()
    expect(unplaced).to_contain_text("after the players who chose that team")
    expect(unplaced.locator(".members li .name")).to_have_text([bob.name])
    carol.call("POST", f"/games/{gid}/join", {"team": 1})
    dave.call("POST", f"/games/{gid}/join", {"team": 2})  # after bob, but he chose the team: he plays first
    expect(page.locator("#confirm")).to_be_visible()
    expect(unplaced).to_have_count(0)
    team2 = page.locator('.teams li.team[data-team="2"] .members li .name')
    expect(team2).to_have_text([dave.username, bob.name])
    scroll_to(page, '.teams li.team[data-team="2"]')
    expect(team2.last).to_be_in_viewport()
    bob.close()


@VIEWPORTS
def test_a_player_removed_for_not_confirming_is_told_why(
    browser: Browser, quick_server: str, viewport: ViewportSize
) -> None:
    tag = short(viewport)
    bob = signed_up(browser, quick_server, f"rmbob{tag}", viewport)
    alice = ApiPlayer.register(quick_server, f"rmalice{tag}")
    gid = alice.call("POST", "/games", {"size": 9, "team": 1})["id"]
    page = bob.page
    page.goto(f"/games/{gid}")
    page.click("#join-any")
    expect(page.locator("#confirm")).to_be_visible()
    alice.call("POST", f"/games/{gid}/confirm")
    # bob does not confirm: once the window closes the page says why he is out, without a reload.
    said = f"You were removed from this game: you did not confirm within {CONFIRM_WINDOW} s."
    expect(page.locator("#removed")).to_have_text(said)
    expect(page.locator("#removed")).to_be_in_viewport()
    expect(page.locator("#join-any")).to_be_visible()  # he may join again
    page.goto("/dashboard")
    removal = page.locator(f'#removals .removal[data-game="{gid}"]')
    expect(removal).to_have_text(
        f"You were removed from game {gid}: you did not confirm within {CONFIRM_WINDOW} s."
    )
    expect(removal).to_be_in_viewport()
    removal.get_by_role("link", name=f"game {gid}").click()
    expect(page.locator("#removed")).to_have_text(said)
    bob.close()


@VIEWPORTS
def test_a_challenge_shows_who_it_is_for_and_only_they_can_accept(
    browser: Browser, server: str, viewport: ViewportSize
) -> None:
    tag = short(viewport)
    bob = signed_up(browser, server, f"chbob{tag}", viewport)
    carol = signed_up(browser, server, f"chcarol{tag}", viewport)
    alice = ApiPlayer.register(server, f"chalice{tag}")
    gid = alice.call("POST", "/games", {"size": 9, "team": 1, "challenge": bob.name})["id"]

    # Anybody else: the lobby and the game page say whom the challenge is for, with no way to join.
    carol.page.goto("/lobby")
    row = carol.page.locator(f'.game-row[data-game="{gid}"]')
    expect(row.locator(".challenge-for")).to_have_text(f"Challenge for {bob.name}")
    expect(row).to_be_in_viewport()
    expect(row.locator("button")).to_have_count(0)
    carol.page.goto(f"/games/{gid}")
    expect(carol.page.locator("#challenge-for")).to_have_text(
        f"Challenge for {bob.name}: only they can join."
    )
    expect(carol.page.locator("#challenge-for")).to_be_in_viewport()
    expect(carol.page.locator(".join-buttons, #join-any, #accept")).to_have_count(0)

    # The challenged player: Accept in the lobby and on the game page.
    bob.page.goto(f"/games/{gid}")
    expect(bob.page.locator("#challenge-for")).to_contain_text("A challenge for you")
    expect(bob.page.locator("#accept")).to_be_visible()
    expect(bob.page.locator(".join-buttons")).to_have_count(0)
    bob.page.goto("/lobby")
    mine = bob.page.locator(f'.game-row[data-game="{gid}"]')
    expect(mine.locator(".challenge-for")).to_have_text("A challenge for you")
    expect(mine.locator("button")).to_have_text(["Accept"])
    mine.get_by_role("button", name="Accept").click()
    expect(bob.page.locator("#confirm")).to_be_visible()
    expect(bob.page).to_have_url(f"{server}/games/{gid}")
    for user in (bob, carol):
        user.close()
