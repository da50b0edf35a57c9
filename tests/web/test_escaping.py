"""Script injection through what others write: an uploaded record's players, game name and comments (game
page title, players, move list and variations, review panel; the archive; the profile), another member's
chat, and the upload form's refusal, which quotes the file. Each payload would set `window.__pwned` or open
a dialog if it ran; the page must show it as the text it is, create no element of it, and draw no complaint
from the content security policy (which blocks inline scripts, but only once an injection happened). The
comment of the move on screen is shown as text; the game name is not shown by the pages; both come back as
written in the download."""

from __future__ import annotations

from urllib.parse import quote

from playwright.sync_api import Browser, Page, expect

from tests.web.support import ApiPlayer
from tests.web.ui import User, api, open_browser, register_by_api

FLAG = "__pwned"
SCRIPT = f"<script>window.{FLAG}='script';alert(1)</script>"
IMG = f"<img src=x onerror=\"window.{FLAG}='img';alert(2)\">"
SVG = f"<svg onload=\"window.{FLAG}='svg'\"><script>window.{FLAG}='svg script'</script></svg>"
LINK = f"javascript:window.{FLAG}='link';alert(3)"
ANCHOR = f'"><a href="javascript:window.{FLAG}=\'anchor\'">click</a>'
# SGF values need no escapes for these (no ']' or '\'): PB, PW, GN, comments on the root and on moves.
RECORD = (
    f"(;GM[1]FF[4]CA[UTF-8]SZ[9]PB[{SCRIPT}]PW[{IMG}]GN[{SVG}]C[{LINK} {ANCHOR}]RE[B+R]"
    f";B[ee]C[{IMG}];W[cc]C[{SVG}](;B[gc]C[{SCRIPT}];W[cg])(;B[cd]C[{LINK}]N[{ANCHOR}]))"
)
# Made of what the payloads create if they become markup.
INJECTED = 'img[src="x"], [onerror], [onload], a[href^="javascript:"], script:not([src]), svg script'


def watch_dialogs(page: Page) -> list[str]:
    opened: list[str] = []

    def dismiss(dialog: object) -> None:
        opened.append(dialog.message)  # type: ignore[attr-defined]
        dialog.dismiss()  # type: ignore[attr-defined]

    page.on("dialog", dismiss)
    return opened


def nothing_ran(user: User, dialogs: list[str]) -> None:
    page = user.page
    expect(page.locator(INJECTED)).to_have_count(0)
    assert page.evaluate(f"window.{FLAG}") is None
    assert dialogs == []
    user.check_no_errors()  # the content security policy complained of nothing, no script failed


def test_an_uploaded_records_names_and_comments_are_shown_as_text(browser: Browser, server: str) -> None:
    user = open_browser(browser, server, "xssrecord")
    dialogs = watch_dialogs(user.page)
    csrf = register_by_api(user)
    gid = api(user, csrf, "POST", "/games/upload", {"sgf": RECORD})["id"]
    page = user.page

    page.goto(f"/games/{gid}")
    expect(page.locator("h1")).to_have_text(f"{SCRIPT} vs {IMG}")
    assert page.title() == f"{SCRIPT} vs {IMG} · Miai"
    members = page.locator("ul.teams .members .name")
    expect(members).to_have_text([SCRIPT, IMG])
    expect(page.locator("#move-list")).to_be_visible()
    comment = page.locator("#move-comment")  # the comment of the move on screen, as the text it is
    expect(comment).to_be_hidden()  # the last move, W[cg], has none
    page.goto(f"/games/{gid}?move=3")
    expect(comment).to_have_text(SCRIPT)
    page.goto(f"/games/{gid}?move=1")
    expect(comment).to_have_text(IMG)
    page.goto(f"/games/{gid}?move=2")
    expect(comment).to_have_text(SVG)
    page.locator('#move-list li[data-ply="3"] .variation-marker').click()  # the variation's stone
    expect(page.locator("#move-list ol.variation li.current")).to_be_visible()
    expect(comment).to_have_text(LINK)
    expect(page.locator("#ask-review")).to_be_visible()  # the review panel of the record's player
    nothing_ran(user, dialogs)

    # Downloaded, the record is the file it was: the comments come back as they were written.
    sgf = user.context.request.get(f"/api/v1/games/{gid}/sgf")
    assert sgf.headers["content-type"].startswith("application/x-go-sgf")
    assert sgf.headers["content-disposition"].startswith("attachment")
    for text in (SCRIPT, IMG, SVG, LINK, ANCHOR):
        assert text in sgf.text()

    page.goto(f"/archive?player={quote(user.name)}")
    players = page.locator(f'#archive-games > li[data-game="{gid}"] .archive-players')
    expect(players).to_contain_text(SCRIPT)
    expect(players).to_contain_text(IMG)
    page.goto(f"/users/{user.name}")
    expect(page.locator("#profile-name")).to_have_text(user.name)
    nothing_ran(user, dialogs)
    user.context.close()


def test_chat_and_the_readers_refusals_are_shown_as_text(browser: Browser, server: str) -> None:
    """Chat from another member, and the upload form's refusal, which quotes the file. (Usernames cannot
    carry markup at all: 3 to 32 letters, digits, '_' or '-'.)"""
    victim = open_browser(browser, server, "xssvictim")
    dialogs = watch_dialogs(victim.page)
    csrf = register_by_api(victim)
    host = ApiPlayer.register(server, "xsshost")
    page = victim.page

    created = host.call("POST", "/games", {"size": 9, "team": 1})
    gid = created["id"]
    api(victim, csrf, "POST", f"/games/{gid}/join", {"team": 2, "invite": created["invite_code"]})
    host.call("POST", f"/games/{gid}/confirm")
    api(victim, csrf, "POST", f"/games/{gid}/confirm")
    said = f"{SVG} {LINK} {ANCHOR} {IMG}"
    host.call("POST", f"/games/{gid}/chat", {"channel": "public", "text": said})
    host.play(gid, "E5")
    api(victim, csrf, "POST", f"/games/{gid}/resign", {})
    page.goto(f"/games/{gid}")
    expect(page.locator(".chat-log")).to_contain_text(said)
    nothing_ran(victim, dialogs)

    page.goto("/archive")
    page.click("#upload summary")
    page.fill("#upload-text", f"(;GM[1]SZ[{IMG}];B[ee])")
    page.click("#upload-submit")
    expect(page.locator("#upload-status .error")).to_contain_text(f"SZ[{IMG}]: invalid number")
    nothing_ran(victim, dialogs)

    refused = victim.context.request.post("/api/v1/accounts", data={"username": IMG, "password": "x" * 12})
    assert refused.status == 422
    victim.context.close()
