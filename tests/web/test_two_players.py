"""A two-player game on a phone-sized screen, played with the keyboard, with a move the server refuses (the
page shows why), that ends by resignation."""

from __future__ import annotations

from pathlib import Path

from playwright.sync_api import Browser, WebSocketRoute, expect

from tests.web.ui import (
    PHONE,
    board_shot,
    counter,
    expect_point,
    join_and_start,
    new_game,
    play,
    point,
    signed_up,
)


def test_two_player_game_ends_by_resignation(browser: Browser, server: str, artifacts: Path) -> None:
    alice = signed_up(browser, server, "alice2p")
    bob = signed_up(browser, server, "bob2p", viewport=PHONE)
    gid = new_game(alice.page, {"team": "1"})
    join_and_start(alice, bob, gid, 2)
    expect(alice.page.locator("#turn")).to_contain_text("Your turn")

    # No private chat in a two-player game: only the public pane.
    expect(bob.page.locator(".chat .tab")).to_have_count(1)
    expect(bob.page.locator(".chat .tab")).to_have_text("Public")

    expect(alice.page.locator("#draw")).to_have_count(0)  # agreed draws are for more than two colours

    play(alice.page, "D4", 1)
    # A second tab of bob's whose websocket hears nothing (its page misses every move from now on).
    stale = bob.context.new_page()

    def deaf(ws: WebSocketRoute) -> None:
        server = ws.connect_to_server()
        ws.on_message(server.send)
        server.on_message(lambda message: None)

    stale.route_web_socket("**/ws*", deaf)
    stale.goto(f"/games/{gid}")
    expect(counter(stale)).to_contain_text("Move 1 of 1")
    counter_bob = counter(bob.page)
    expect(counter_bob).to_contain_text("Move 1 of 1")

    # Bob plays with the keyboard: the cursor starts at the centre (E5), arrows move it, Enter previews,
    # Enter again plays.
    board = bob.page.locator(".board")
    board.focus()
    for key in ("ArrowLeft", "ArrowLeft", "ArrowDown", "ArrowDown"):
        bob.page.keyboard.press(key)
    cell_id = point(bob.page, "C3").get_attribute("id")
    expect(board).to_have_attribute("aria-activedescendant", str(cell_id))
    expect(bob.page.locator("#sr-live")).to_contain_text("C3: empty")
    bob.page.keyboard.press("ArrowRight")  # D3
    bob.page.keyboard.press("ArrowUp")  # D4: occupied, Enter does nothing but say why
    bob.page.keyboard.press("Enter")
    expect(bob.page.locator("#hint")).to_contain_text("D4: illegal, that point is already occupied")
    bob.page.keyboard.press("ArrowLeft")  # C4
    bob.page.keyboard.press("Enter")
    expect(bob.page.locator("#submit-move")).to_have_text("Submit Move C4")
    bob.page.keyboard.press("Enter")
    expect(counter_bob).to_contain_text("Move 2 of 2")
    expect_point(alice.page, "C4", "team 2 stone (white, circle), last move")
    play(alice.page, "E5", 3)

    # The stale tab still shows move 1 with E5 empty; the server refuses E5 and the page says why, then
    # catches up.
    expect(counter(stale)).to_contain_text("Move 1 of 1")
    point(stale, "E5").click()
    stale.click("#submit-move")
    expect(stale.locator("#hint")).to_contain_text(
        "The server refused E5: that point is already occupied (occupied)"
    )
    expect(counter(stale)).to_contain_text("Move 3 of 3")
    stale.close()
    play(bob.page, "F5", 4)

    # The board fits the phone screen without sideways scrolling.
    width = bob.page.evaluate("document.documentElement.scrollWidth")
    assert width <= PHONE["width"], f"the page is {width}px wide on a {PHONE['width']}px screen"
    box = board.bounding_box()
    assert box is not None and box["width"] <= PHONE["width"]
    board_shot(bob.page, artifacts / "two-players-phone-board.png")
    bob.page.screenshot(path=str(artifacts / "two-players-phone.png"), full_page=True)

    # Outside practice games the territory estimate is an optional view (a check box, no "Area" button).
    estimate = alice.page.locator("#show-estimate")
    expect(alice.page.locator("#area")).to_be_hidden()
    estimate.check()
    expect(alice.page.locator(".area-box")).to_have_attribute("data-ply", "4")
    score = alice.page.locator("#area-score")
    expect(score).to_contain_text("Estimated score (area counting): Black")
    estimate.uncheck()
    expect(alice.page.locator(".area-box")).to_have_attribute("data-ply", "")
    expect(alice.page.locator(".board .area-shade")).to_have_count(0)

    # Resigning asks first; cancelling keeps the game going.
    alice.page.click("#resign")
    expect(alice.page.locator("#confirm-title")).to_have_text("Resign?")
    alice.page.click('#confirm-dialog button[value="cancel"]')
    expect(alice.page.locator("#turn")).to_contain_text("Your turn")
    alice.page.click("#resign")
    alice.page.click("#confirm-ok")
    for user in (alice, bob):
        expect(user.page.locator("#result-headline")).to_have_text(
            "Black resigned at move 5; White wins by resignation."
        )
        expect(user.page.locator(".members li[data-user] .tag.out")).to_have_text("resigned")
        expect(counter(user.page)).to_contain_text("Move 5 of 5 · Black: resigns")
    expect(alice.page.locator(".actions")).to_be_hidden()
    expect(alice.page.locator(".area-box")).to_be_hidden()  # finished: the result's territory instead
    board_shot(alice.page, artifacts / "two-players-resigned.png")
    for user in (alice, bob):
        user.close()
