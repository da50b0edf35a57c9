"""Issue 4's headline scenario in real browsers.

Three users in three browser contexts register, create, join, confirm and play a 3-colour 9x9 game to the
end (by passes), with team chat between two teammates that the third user never sees. Teammates need a team
of two, so the game has 3 teams of 2 players: alice and bob (team 1) and carol (team 2) play in browsers; the
other three seats (dave in team 2, erin and frank in team 3) are API clients, as bots would be.
"""

from __future__ import annotations

import re
from pathlib import Path

from playwright.sync_api import Browser, expect

from tests.web.support import ApiPlayer
from tests.web.ui import (
    board_shot,
    chat,
    counter,
    expect_point,
    open_browser,
    pass_turn,
    play,
    point,
    register_in_ui,
    submit_new_game,
    wait_moves,
)

SECRET = "team one: we take the left side"


def test_three_users_play_a_three_colour_game_to_the_end(
    browser: Browser, server: str, artifacts: Path
) -> None:
    alice, bob, carol = (open_browser(browser, server, name) for name in ("alice3c", "bob3c", "carol3c"))
    for user in (alice, bob, carol):
        register_in_ui(user)
    dave, erin, frank = (ApiPlayer.register(server, name) for name in ("dave3c", "erin3c", "frank3c"))

    # Bob waits in the lobby; alice's new game appears there live (lobby ping over /api/v1/ws).
    bob.page.goto("/lobby")
    expect(bob.page.locator("#open-games")).to_be_visible()
    page = alice.page
    page.click("#nav-new")
    gid = submit_new_game(page, {"size": "9", "teams": "3", "players-per-team": "2", "team": "1"})
    row = bob.page.locator(f'.game-row[data-game="{gid}"]')
    expect(row).to_contain_text("5 free seats of 6")
    row.locator('button[data-team="1"]').click()  # bob joins alice's team from the lobby
    expect(bob.page).to_have_url(f"{server}/games/{gid}")
    carol.page.goto(f"/games/{gid}")
    carol.page.click('.join-buttons button[data-team="2"]')
    expect(carol.page.locator("#leave")).to_be_visible()
    for api_player, team in ((dave, 2), (erin, 3), (frank, 3)):
        api_player.call("POST", f"/games/{gid}/join", {"team": team})

    # Every seat taken: each page asks for confirmation and shows the deadline.
    for user in (alice, bob, carol):
        expect(user.page.locator("#confirm-deadline")).to_have_text(re.compile(r"^0[45]:\d\d$"))
        user.page.click("#confirm")
    for api_player in (dave, erin, frank):
        api_player.call("POST", f"/games/{gid}/confirm")
    for user in (alice, bob, carol):
        expect(user.page.locator("#turn")).to_be_visible()
    expect(alice.page.locator("#turn")).to_contain_text("Your turn")
    expect(carol.page.locator("#turn")).to_contain_text("alice3c")
    expect(carol.page.locator("#clock")).to_have_text(re.compile(r"^23:59:\d\d$"))

    # Team chat between the teammates; carol (team 2) has no tab for it and never receives it.
    expect(carol.page.locator('.chat .tab[data-channel="team"]')).to_have_count(1)  # her own team's pane
    chat(alice.page, "team", SECRET)
    bob.page.click('.chat .tab[data-channel="team"]')
    expect(bob.page.locator(".chat-log")).to_contain_text(SECRET)
    chat(bob.page, "team", "agreed")
    chat(carol.page, "public", "good luck everyone")
    alice.page.click('.chat .tab[data-channel="public"]')
    expect(alice.page.locator(".chat-log")).to_contain_text("good luck everyone")
    chat(carol.page, "team:1", "team two to team one: truce?")
    alice.page.click('.chat .tab[data-channel="team:2"]')
    expect(alice.page.locator(".chat-log")).to_contain_text("truce?")
    bob.page.click('.chat .tab[data-channel="team:2"]')  # his team's conversation with team 2
    expect(bob.page.locator(".chat-log")).to_contain_text("truce?")
    ids = {p["username"]: p["user_id"] for p in dave.game(gid)["players"]}
    bob_id, carol_id = ids["bob3c"], ids["carol3c"]
    chat(carol.page, f"user:{bob_id}", "just between us, bob")
    bob.page.click(f'.chat .tab[data-channel="user:{carol_id}"]')
    expect(bob.page.locator(".chat-log")).to_contain_text("just between us, bob")
    alice.page.click(f'.chat .tab[data-channel="user:{carol_id}"]')
    expect(alice.page.locator(".chat-log")).not_to_contain_text("just between us")

    # Play. Turn order: T1 alice, T2 carol, T3 erin, T1 bob, T2 dave, T3 frank, T1 alice, ...
    play(alice.page, "E5", 1)
    wait_moves(carol.page, 1)
    expect(carol.page.locator("#turn")).to_contain_text("Your turn")
    point(carol.page, "E5").hover()
    expect(carol.page.locator("#hint")).to_contain_text("E5: illegal, that point is already occupied")
    play(carol.page, "D4", 2)
    erin.play(gid, "A1")
    wait_moves(bob.page, 3)
    play(bob.page, "B1", 4)
    dave.play(gid, "J9")
    frank.play(gid, "J1")
    wait_moves(alice.page, 6)
    play(alice.page, "A2", 7)  # captures erin's A1
    for user in (alice, bob, carol):
        wait_moves(user.page, 7)
        expect(user.page.locator('.team[data-team="1"] .captures')).to_have_text("captures: 1")
    expect_point(carol.page, "A1", "empty")
    expect_point(carol.page, "A2", "team 1 stone (black, square), last move")
    point(carol.page, "A1").hover()  # surrounded by team 1: suicide for team 2
    expect(carol.page.locator("#hint")).to_contain_text(
        "A1: illegal, the stone would have no liberties (suicide)"
    )
    board_shot(carol.page, artifacts / "three-colours-midgame.png")

    # Stepping back through the game on bob's page.
    bob.page.click('button[aria-label="First move"]')
    expect(counter(bob.page)).to_contain_text("Move 0 of 7")
    expect(bob.page.locator(".board .stone")).to_have_count(0)
    bob.page.click('button[aria-label="Next move"]')
    expect(counter(bob.page)).to_contain_text("Move 1 of 7")
    expect_point(bob.page, "E5", "team 1 stone (black, square), last move")
    bob.page.click('button[aria-label="Last move"]')
    expect(counter(bob.page)).to_contain_text("Move 7 of 7")

    # Agreed draws exist with more than two colours: an offer shows on every page and can be withdrawn.
    alice.page.click("#draw")
    draw_note = "Draw accepted by Black; every remaining team (Black, White, Red) must accept"
    expect(carol.page.locator(".draw")).to_contain_text(draw_note)
    expect(alice.page.locator("#draw")).to_have_text("Withdraw draw offer")
    alice.page.click("#draw")
    expect(carol.page.locator(".draw")).to_contain_text("An agreed draw needs every remaining team")

    # Three passes in a row with three colours in play end the game.
    pass_turn(carol.page, 8)
    erin.play(gid, "pass")
    wait_moves(bob.page, 9)
    pass_turn(bob.page, 10)
    for user in (alice, bob, carol):
        expect(user.page.locator("#result-headline")).to_have_text("Black wins by 2 points.")
        expect(user.page.locator(".scores tbody tr")).to_have_count(3)
    # DipGo scoring: stones + territory. Team 1: E5 B1 A2 and the point A1; team 2: D4 J9; team 3: J1.
    result = dave.game(gid)["result"]
    assert {s["team"]: s["total"] for s in result["scores"]} == {1: 4, 2: 2, 3: 1}
    for team, total in ((1, "4"), (2, "2"), (3, "1")):
        expect(alice.page.locator(f'.scores tr[data-team="{team}"] td').last).to_have_text(total)
    expect(alice.page.locator(".board .territory").first).to_be_attached()
    expect_point(alice.page, "A1", "empty, territory of team 1")
    expect(alice.page.locator("#sgf")).to_have_attribute("href", f"/api/v1/games/{gid}/sgf")
    sgf = alice.context.request.get(f"/api/v1/games/{gid}/sgf")
    assert sgf.ok and sgf.text().startswith("(;") and "MC[3]" in sgf.text()
    # Private chat closes at the end; only the public pane is left.
    expect(carol.page.locator(".chat .tab")).to_have_count(1)
    board_shot(alice.page, artifacts / "three-colours-finished.png")
    alice.page.screenshot(path=str(artifacts / "three-colours-finished-page.png"))

    assert all(SECRET not in frame for frame in carol.frames), "team 1's chat reached carol's browser"
    assert any(SECRET in frame for frame in bob.frames), "bob should get his teammate's message live"
    assert SECRET not in carol.page.content()
    for user in (alice, bob, carol):
        user.close()
