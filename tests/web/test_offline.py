"""The game page while the browser is offline: a banner says so, a move made meanwhile is reported as not
sent (not as refused by the server) and is not put on the board; back online, the banner goes, the error
clears, the page catches up with what happened meanwhile and the move can be played."""

from __future__ import annotations

import re
from typing import Any

import pytest
from playwright.sync_api import Browser, ViewportSize, expect

from tests.web.support import ApiPlayer, start_game
from tests.web.ui import DESKTOP, PHONE, User, counter, expect_point, play, point, signed_up


def alice_to_play(
    browser: Browser, server: str, alice: str, bob: str, viewport: ViewportSize
) -> tuple[User, ApiPlayer, int]:
    """Alice in a browser against bob by the API: a started 9×9 game on her page, her turn."""
    user = signed_up(browser, server, f"{alice}{viewport['width']}", viewport)
    player = ApiPlayer.register(server, f"{bob}{viewport['width']}")
    gid = start_game([user, player], {"size": 9, "seconds_per_move": 3600})
    user.page.goto(f"/games/{gid}")
    expect(user.page.locator("#turn")).to_contain_text("Your turn")
    return user, player, gid


@pytest.mark.parametrize("viewport", [DESKTOP, PHONE], ids=["desktop", "phone"])
def test_a_move_made_offline_is_not_sent_and_the_page_catches_up(
    browser: Browser, server: str, viewport: ViewportSize
) -> None:
    alice, bob, gid = alice_to_play(browser, server, "offalice", "offbob", viewport)
    page = alice.page
    banner, hint = page.locator("#banner"), page.locator("#hint")
    expect(banner).to_be_hidden()

    alice.context.set_offline(True)
    expect(banner).to_be_in_viewport()
    expect(banner).to_contain_text("Offline")
    point(page, "E5").click()
    page.click("#submit-move")
    expect(hint).to_contain_text("Not sent: E5")
    expect(hint).not_to_contain_text("refused")
    expect(hint).to_be_in_viewport()
    expect(page.locator("#toast")).to_contain_text("Not sent: E5")
    expect_point(page, "E5", "empty")  # not on the board, not even as a preview
    expect(page.locator(".board .preview")).to_have_count(0)
    expect(counter(page)).to_have_text("Move 0 of 0")
    expect(page.locator("#turn")).to_contain_text("Your turn")
    bob.call("POST", f"/games/{gid}/chat", {"channel": "public", "text": "said while you were offline"})

    sockets_before = len(alice.socket_urls)
    alice.context.set_offline(False)
    expect(banner).to_be_hidden()
    expect(page.locator("#toast")).to_contain_text("Reconnected; the game is up to date.")
    expect(hint).not_to_contain_text("Not sent")
    expect(page.locator(".chat-log")).to_contain_text("said while you were offline")
    expect(counter(page)).to_have_text("Move 0 of 0")
    assert bob.game(gid)["moves"] == []  # the board matches the server: nothing was played
    assert any(f"/games/{gid}/ws?since=" in u for u in alice.socket_urls[sockets_before:]), alice.socket_urls

    play(page, "E5", 1)  # the same move goes through now
    assert bob.game(gid)["moves"][-1]["move"] == "E5"
    bob.play(gid, "C3")  # and live updates arrive again
    expect(counter(page)).to_contain_text("Move 2 of 2 · White: C3")
    expect(hint).not_to_contain_text("Not sent")
    alice.close()


@pytest.mark.parametrize("viewport", [DESKTOP, PHONE], ids=["desktop", "phone"])
def test_a_move_whose_answer_is_lost_is_not_reported_as_unplayed(
    browser: Browser, server: str, viewport: ViewportSize
) -> None:
    """The browser is online but the network fails mid-request: a request lost on the way was not played and
    the page says so; one whose answer alone was lost was played, and the page must not say otherwise (the
    user would play it again: a second pass in a practice game ends it)."""
    alice, bob, gid = alice_to_play(browser, server, "lostalice", "lostbob", viewport)
    page = alice.page
    hint = page.locator("#hint")
    moves = f"**/api/v1/games/{gid}/moves"

    page.route(moves, lambda route: route.abort("connectionreset"))  # lost on the way: never played
    point(page, "E5").click()
    page.click("#submit-move")
    expect(hint).to_contain_text("not played")
    expect(hint).to_be_in_viewport()
    expect_point(page, "E5", "empty")
    assert bob.game(gid)["moves"] == []
    page.unroute(moves)

    def answer_lost(route: Any) -> None:
        route.fetch()  # the server gets the move and plays it ...
        route.abort("connectionreset")  # ... but its answer never comes back

    page.route(moves, answer_lost)
    point(page, "E5").click()
    page.click("#submit-move")
    expect(counter(page)).to_contain_text("Move 1 of 1")
    expect_point(page, "E5", "team 1 stone (black, square), last move")
    expect(page.locator("#turn")).not_to_contain_text("Your turn")
    expect(hint).not_to_contain_text("not played")
    expect(hint).not_to_contain_text("Not sent")
    assert [m["move"] for m in bob.game(gid)["moves"]] == ["E5"]
    page.unroute(moves)

    # Lost on the way while the server cannot be asked either: the page says so once it can ask again.
    bob.play(gid, "C3")
    expect(counter(page)).to_contain_text("Move 2 of 2")
    server_gone = re.compile(rf"/api/v1/games/{gid}(/moves)?(\?.*)?$")
    page.route(server_gone, lambda route: route.abort("connectionreset"))
    point(page, "D4").click()
    page.click("#submit-move")
    expect(hint).to_contain_text("D4 may not have been played")
    alice.context.set_offline(True)  # the live socket goes too
    page.unroute(server_gone)
    alice.context.set_offline(False)
    expect(page.locator("#toast")).to_contain_text("Reconnected")
    expect(hint).to_contain_text("Not sent: D4")
    expect(hint).to_contain_text("not played")
    expect_point(page, "D4", "empty")
    expect(page.locator("#turn")).to_contain_text("Your turn")
    alice.close()


@pytest.mark.parametrize("viewport", [DESKTOP, PHONE], ids=["desktop", "phone"])
def test_a_server_error_on_a_move_is_settled_by_what_the_server_has(
    browser: Browser, server: str, viewport: ViewportSize
) -> None:
    """A 5xx answer (a proxy that timed out, say) does not tell whether the move was played: the page asks
    the server, then says the move was not played, or drops the error once the move is on the board."""
    alice, bob, gid = alice_to_play(browser, server, "5xxalice", "5xxbob", viewport)
    page = alice.page
    hint = page.locator("#hint")
    moves = f"**/api/v1/games/{gid}/moves"

    page.route(moves, lambda route: route.fulfill(status=502, body="Bad gateway"))  # never reached the server
    point(page, "E5").click()
    page.click("#submit-move")
    expect(hint).to_have_text("E5 was not played: the server answered 502. Play it again.")
    expect(hint).to_be_in_viewport()
    expect_point(page, "E5", "empty")
    assert bob.game(gid)["moves"] == []
    page.unroute(moves)

    def played_then_failed(route: Any) -> None:
        route.fetch()  # the server plays the move ...
        route.fulfill(status=504, body="Gateway timeout")  # ... but the proxy gave up waiting for it

    page.route(moves, played_then_failed)
    point(page, "E5").click()
    page.click("#submit-move")
    expect(counter(page)).to_contain_text("Move 1 of 1 · Black: E5")
    expect(page.locator("#turn")).not_to_contain_text("Your turn")
    expect(hint).not_to_contain_text("E5")  # neither "may not have been played" nor "not played"
    assert [m["move"] for m in bob.game(gid)["moves"]] == ["E5"]
    alice.close()
