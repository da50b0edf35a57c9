"""DipGo with teams, as its players meet it, at 1280×800 and 390×844 (issue 16).

A 3-colour game with 3 teams of 2: joined from the lobby, confirmed, played in rotation (team 1, 2, 3, then
the teams' second players), with team chat, a private message that is still there after a reload, a
resignation that leaves the move to the teammate, and three passes that end it. Then a player who runs out
of time while a teammate plays on, and the dashboard that lists games by the time left to move.

Two teammates play in browsers (alice and bob, team 1); the other four seats are API clients, as bots are.
"""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import Browser, Page, ViewportSize, expect

from tests.web.support import ApiPlayer, start_game
from tests.web.ui import (
    DESKTOP,
    VIEWPORTS,
    assert_in_viewport,
    chat,
    counter,
    new_game,
    pass_turn,
    play,
    signed_up,
    wait_moves,
)

SECRET = "team one only: we take the left side"
WHISPER = "just between us, bob"


def tag(viewport: ViewportSize) -> str:
    return "d" if viewport is DESKTOP else "p"


def at_top(page: Page) -> None:
    """Back to the top of the page, where the board is (the seat buttons and chat may be further down)."""
    page.evaluate("window.scrollTo(0, 0)")


def board_and_controls(page: Page) -> None:
    at_top(page)
    assert_in_viewport(
        page,
        page.locator(".board"),
        page.locator("#submit-move"),
        page.locator("#pass"),
        page.locator("#resign"),
    )


def turn(page: Page) -> object:
    return page.locator("#turn")


@pytest.mark.parametrize("viewport", VIEWPORTS)
def test_three_teams_of_two_join_chat_resign_and_pass(
    browser: Browser, server: str, viewport: ViewportSize
) -> None:
    t = tag(viewport)
    alice, bob = (signed_up(browser, server, f"{name}dip{t}", viewport) for name in ("alice", "bob"))
    carol, dave, erin, frank = (
        ApiPlayer.register(server, f"{n}dip{t}") for n in ("carol", "dave", "erin", "frank")
    )

    # Alice creates the game on the form; bob, in the lobby, sees it appear and joins her team from there.
    bob.page.goto("/lobby")
    expect(bob.page.locator("#open-games")).to_be_visible()
    fields = {"size": "9", "teams": "3", "players-per-team": "2", "preset": "dipgo", "team": "1"}
    gid = new_game(alice.page, fields)
    row = bob.page.locator(f'.game-row[data-game="{gid}"]')
    expect(row).to_contain_text("5 free seats of 6")
    # Each team by its stones' colour, with its seats taken.
    expect(row.locator(".team-seats li")).to_have_text(
        [re.compile(rf"^\s*{c}: {n}/2") for c, n in (("Black", 1), ("White", 0), ("Red", 0))]
    )
    row.locator('button[data-team="1"]').click()
    expect(bob.page).to_have_url(f"{server}/games/{gid}")
    expect(bob.page.locator('.team[data-team="1"] .members')).to_contain_text(f"alicedip{t}")
    for player, team in ((carol, 2), (dave, 2), (erin, 3), (frank, 3)):
        player.call("POST", f"/games/{gid}/join", {"team": team})

    # Every seat taken: both pages ask for a confirmation before a deadline; the last one starts the game.
    for player in (carol, dave, erin, frank):
        player.call("POST", f"/games/{gid}/confirm")
    for user in (alice, bob):
        expect(user.page.locator("#confirm-deadline")).to_have_text(re.compile(r"^0[45]:\d\d$"))
        user.page.click("#confirm")

    # Rotation: T1 alice, T2 carol, T3 erin, T1 bob, T2 dave, T3 frank, then alice again.
    expect(turn(alice.page)).to_contain_text("Your turn")
    expect(turn(bob.page)).to_contain_text(f"alicedip{t}")
    board_and_controls(alice.page)
    play(alice.page, "E5", 1)
    expect(turn(bob.page)).to_contain_text(f"caroldip{t}")
    carol.play(gid, "D4")
    expect(turn(bob.page)).to_contain_text(f"erindip{t}")
    erin.play(gid, "pass")
    expect(turn(bob.page)).to_contain_text("Your turn")
    expect(turn(alice.page)).to_contain_text(f"bobdip{t}")
    board_and_controls(bob.page)
    play(bob.page, "F6", 4)

    # Team chat reaches the teammate only (carol's own view of the game never holds it).
    chat(alice.page, "team", SECRET)
    bob.page.click('.chat .tab[data-channel="team"]')
    expect(bob.page.locator(".chat-log")).to_contain_text(SECRET)
    assert all(m["text"] != SECRET for m in carol.game(gid)["chat"])

    # A private message from carol to bob: shown as unread, and still there after bob reloads the page.
    ids = {p["username"]: p["user_id"] for p in carol.game(gid)["players"]}
    carol.call("POST", f"/games/{gid}/chat", {"channel": f"user:{ids[f'bobdip{t}']}", "text": WHISPER})
    carol_tab = f'.chat .tab[data-channel="user:{ids[f"caroldip{t}"]}"]'
    expect(bob.page.locator(f"{carol_tab} .badge")).to_have_text("1")
    bob.page.reload()
    expect(counter(bob.page)).to_contain_text("Move 4 of 4")
    bob.page.click(carol_tab)
    expect(bob.page.locator(".chat-log")).to_contain_text(WHISPER)
    alice.page.click(carol_tab)
    expect(alice.page.locator(".chat-log")).to_contain_text("No messages yet.")

    dave.play(gid, "pass")
    frank.play(gid, "G3")
    wait_moves(alice.page, 6)

    # Alice resigns on her turn: team 1 keeps the move and bob plays on for it.
    expect(turn(alice.page)).to_contain_text("Your turn")
    alice.page.click("#resign")
    expect(alice.page.locator("#confirm-title")).to_have_text("Resign?")
    alice.page.click("#confirm-ok")
    for user in (alice, bob):
        expect(counter(user.page)).to_contain_text("Move 7 of 7 · Black: resigns")
        member = user.page.locator(f'.team[data-team="1"] li[data-user="{ids[f"alicedip{t}"]}"]')
        expect(member.locator(".tag.out")).to_have_text("resigned")
        expect(user.page.locator('.team[data-team="1"] .team-head .tag.out')).to_have_count(0)  # still in
    expect(alice.page.locator(".actions")).to_be_hidden()
    expect(turn(bob.page)).to_contain_text("Your turn")

    # Three passes in a row with three colours in play end the game; DipGo counts stones and territory.
    at_top(bob.page)
    pass_turn(bob.page, 8)
    carol.play(gid, "pass")
    erin.play(gid, "pass")
    for user in (alice, bob):
        expect(user.page.locator("#result-headline")).to_have_text("Black wins by 1 point.")
        expect(user.page.locator(".scores tbody tr")).to_have_count(3)
    totals = {s["team"]: s["total"] for s in carol.game(gid)["result"]["scores"]}
    assert totals == {1: 2, 2: 1, 3: 1}
    for team, total in totals.items():
        expect(bob.page.locator(f'.scores tr[data-team="{team}"] td.total')).to_have_text(f"{total:g}")
    for user in (alice, bob):
        user.close()


@pytest.mark.parametrize("viewport", VIEWPORTS)
def test_a_player_who_runs_out_of_time_leaves_the_move_to_a_teammate(
    browser: Browser, server: str, viewport: ViewportSize
) -> None:
    """Two teams of two, 8 s a move: alice never moves, the server times her out, and bob plays for team 1."""
    t = tag(viewport)
    bob = signed_up(browser, server, f"bobslow{t}", viewport)
    alice, carol, dave = (ApiPlayer.register(server, f"{n}slow{t}") for n in ("alice", "carol", "dave"))
    options = {"size": 9, "teams": 2, "players_per_team": 2, "preset": "dipgo", "seconds_per_move": 8}
    gid = alice.call("POST", "/games", {**options, "team": 1})["id"]
    bob.call("POST", f"/games/{gid}/join", {"team": 1})
    for player in (carol, dave):
        player.call("POST", f"/games/{gid}/join", {"team": 2})
    for player in (alice, carol, dave):
        player.call("POST", f"/games/{gid}/confirm")
    page = bob.page
    page.goto(f"/games/{gid}")
    page.click("#confirm")  # the last confirmation: alice's 8 s start now
    expect(turn(page)).to_contain_text(f"aliceslow{t}")
    expect(counter(page)).to_contain_text("Move 1 of 1 · Black: times out", timeout=30_000)
    member = page.locator(f'.team[data-team="1"] li[data-user="{alice.user_id}"]')
    expect(member.locator(".tag.out")).to_have_text("timed out")
    expect(page.locator('.team[data-team="1"] .team-head .tag.out')).to_have_count(0)
    expect(turn(page)).to_contain_text("Your turn")
    board_and_controls(page)
    play(page, "E5", 2)
    expect(turn(page)).to_contain_text(f"carolslow{t}")
    bob.close()


@pytest.mark.parametrize("viewport", VIEWPORTS)
def test_the_dashboard_lists_games_by_the_time_left_to_move(
    browser: Browser, server: str, viewport: ViewportSize
) -> None:
    """Games where it is your turn come first, each group by its deadline; a move reorders the list live."""
    t = tag(viewport)
    bob = signed_up(browser, server, f"bobdash{t}", viewport)
    alice = ApiPlayer.register(server, f"alicedash{t}")

    def start(seconds: int, bob_first: bool) -> int:
        return start_game(
            [alice, bob], {"size": 9, "seconds_per_move": seconds}, (2, 1) if bob_first else (1, 2)
        )

    day_mine, hour_mine = start(86400, True), start(3600, True)
    minutes_theirs, hours_theirs = start(600, False), start(7200, False)
    page = bob.page
    page.goto("/dashboard")
    rows = page.locator("#my-games .game-row")
    order = [hour_mine, day_mine, minutes_theirs, hours_theirs]
    expect(rows).to_have_count(4)
    for i, gid in enumerate(order):
        expect(rows.nth(i)).to_have_attribute("data-game", str(gid))
    expect(rows.nth(0).locator(".tag.move")).to_have_text("your turn")
    expect(rows.nth(0).locator(".deadline")).to_have_text(re.compile(r"^(59:\d\d|1:00:00)$"))
    expect(rows.nth(1).locator(".deadline")).to_have_text(re.compile(r"^23:59:\d\d$"))
    expect(rows.nth(2).locator(".deadline")).to_have_text(re.compile(r"^(09:\d\d|10:00)$"))
    expect(rows.nth(2)).to_contain_text("Black to move")
    expect(page.locator("#nav-dashboard .badge")).to_have_text("2")
    assert_in_viewport(page, rows.nth(0))

    alice.play(hours_theirs, "E5")  # now bob's turn there too, with two hours left: second in the list
    for i, gid in enumerate([hour_mine, hours_theirs, day_mine, minutes_theirs]):
        expect(rows.nth(i)).to_have_attribute("data-game", str(gid))
    expect(page.locator("#nav-dashboard .badge")).to_have_text("3")
    bob.close()
