"""A reload in the middle of a game restores the page; a lost connection shows a banner, comes back by
itself and catches up on the moves it missed (the websocket resyncs with `since`)."""

from __future__ import annotations

import re
from pathlib import Path
from urllib.parse import urlsplit

from playwright.sync_api import Browser, expect

from tests.web.support import ApiPlayer, TcpProxy, start_game
from tests.web.ui import board_shot, counter, expect_point, play, signed_up


def test_reload_restores_the_game_and_a_lost_connection_resyncs(
    browser: Browser, server: str, artifacts: Path
) -> None:
    proxy = TcpProxy(int(urlsplit(server).port or 0))  # alice reaches the server only through this proxy
    try:
        alice = signed_up(browser, proxy.base, "alicerl")
        bob = ApiPlayer.register(server, "bobrl")
        gid = start_game([alice, bob], {"size": 13, "seconds_per_move": 3600})

        page = alice.page
        page.goto(f"/games/{gid}")
        play(page, "D4", 1)
        bob.play(gid, "K10")
        expect(counter(page)).to_contain_text("Move 2 of 2")
        page.fill("#chat-input", "hello before the reload")
        page.click(".chat-form button")
        expect(page.locator(".chat-log")).to_contain_text("hello before the reload")

        page.reload()
        expect(counter(page)).to_contain_text("Move 2 of 2 · White: K10")
        expect(page.locator(".board .stone")).to_have_count(2)
        expect_point(page, "D4", "team 1 stone (black, square)")
        expect_point(page, "K10", "team 2 stone (white, circle), last move")
        expect(page.locator(".chat-log")).to_contain_text("hello before the reload")
        expect(page.locator("#turn")).to_contain_text("Your turn")
        expect(page.locator("#clock")).to_have_text(re.compile(r"^(59:\d\d|1:00:00)$"))
        page.click('button[aria-label="First move"]')  # the history is back too
        expect(page.locator(".board .stone")).to_have_count(0)
        page.click('button[aria-label="Last move"]')
        play(page, "G7", 3)

        # The connection drops: a banner says so; bob moves meanwhile; the page reconnects and catches up.
        version_before = bob.game(gid)["version"]
        sockets_before = len(alice.socket_urls)
        proxy.cut()
        expect(page.locator("#banner")).to_be_visible()
        expect(page.locator("#banner")).to_contain_text("Connection lost")
        bob.play(gid, "C10")
        bob.call("POST", f"/games/{gid}/chat", {"channel": "public", "text": "sent while you were away"})
        proxy.restore()
        expect(counter(page)).to_contain_text("Move 4 of 4 · White: C10", timeout=30_000)
        expect(page.locator("#banner")).to_be_hidden()
        expect(page.locator(".chat-log")).to_contain_text("sent while you were away")
        expect(page.locator("#turn")).to_contain_text("Your turn")
        resync = [u for u in alice.socket_urls[sockets_before:] if f"/games/{gid}/ws" in u]
        assert resync, alice.socket_urls
        assert f"since={version_before}" in resync[-1], resync  # asked only for what it missed
        board_shot(page, artifacts / "reconnected-13x13.png")
        play(page, "D10", 5)  # and the page still plays
        assert bob.game(gid)["moves"][-1]["move"] == "D10"
        alice.close()
    finally:
        proxy.stop()
