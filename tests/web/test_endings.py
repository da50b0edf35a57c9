"""How the game page says a game ended, at 1280×800 and 390×844: a loss on time and a resignation against the
computer in plain words with no empty score table, a colour that timed out in a game that was then counted,
and a seki: its stones ringed, the dame marked, both named in the score explanation, a legend for the marks.
"""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Browser, Page, ViewportSize, expect

from tests.web.support import ApiPlayer
from tests.web.ui import DESKTOP, PHONE, VIEWPORTS, point, signed_up

# SPEC §1.11.6 (a), a seki with one eye each (as in tests/server/test_endings.py; GNU Go 3.8 agrees).
SEKI_BLACK = ["D4", "D5", "D6", "D7", "D8", "D9", "D3", "E3", "F3", "G3", "A2", "B2", "C2", "G2", "B1", "G1"]
SEKI_WHITE = ["C4", "C5", "C6", "C7", "C8", "C9", "A3", "B3", "C3", "D2", "E2", "F2", "D1", "F1"]


def seki_moves() -> list[str]:
    moves = [m for pair in zip(SEKI_BLACK, SEKI_WHITE, strict=False) for m in pair]
    return [*moves, SEKI_BLACK[14], "pass", SEKI_BLACK[15], "pass", "pass"]


def tag(viewport: ViewportSize) -> str:
    return "desktop" if viewport is DESKTOP else "phone"


def fits(page: Page, viewport: ViewportSize) -> None:
    width = page.evaluate("document.documentElement.scrollWidth")
    assert width <= viewport["width"], f"the page is {width}px wide on a {viewport['width']}px screen"


def nothing_counted(page: Page) -> None:
    """After a resignation or a timeout: no score table, no territory box, no marks on the board."""
    expect(page.locator(".result-card")).to_be_visible()
    expect(page.locator(".result-card table.scores")).to_have_count(0)
    expect(page.locator("#show-territory")).to_have_count(0)
    expect(page.locator("#mark-legend")).to_have_count(0)
    expect(page.locator(".dead-note")).to_have_count(0)


def wait_for(condition: Any, seconds: float = 30) -> None:
    deadline = time.monotonic() + seconds
    while not condition():
        assert time.monotonic() < deadline, "timed out waiting"
        time.sleep(0.05)


@pytest.mark.parametrize("viewport", VIEWPORTS)
def test_a_loss_on_time_reads_white_wins_on_time(
    browser: Browser, server: str, artifacts: Path, viewport: ViewportSize
) -> None:
    user = signed_up(browser, server, f"late-{tag(viewport)}", viewport)
    opponent = ApiPlayer.register(server, f"waiter-{tag(viewport)}")
    options = {"size": 9, "preset": "chinese", "team": 1, "seconds_per_move": 3}
    gid = user.call("POST", "/games", options)["id"]
    opponent.call("POST", f"/games/{gid}/join", {"team": 2})
    page = user.page
    page.goto(f"/games/{gid}")
    page.click("#confirm")
    opponent.call("POST", f"/games/{gid}/confirm")
    expect(page.locator("#turn")).to_contain_text("Your turn")
    # Black (this page) lets the 3 s per move run out.
    headline = page.locator("#result-headline")
    expect(headline).to_have_text("Black timed out at move 1; White wins on time.", timeout=30_000)
    nothing_counted(page)
    expect(page.locator(".members li[data-user] .tag.out")).to_have_text("timed out")
    fits(page, viewport)
    page.screenshot(path=str(artifacts / f"ending-timeout-{tag(viewport)}.png"), full_page=True)
    assert opponent.game(gid)["result"]["reason"] == "timeout"
    user.close()


@pytest.mark.parametrize("viewport", VIEWPORTS)
def test_resigning_against_the_computer_reads_black_resigned(
    browser: Browser, server: str, artifacts: Path, viewport: ViewportSize
) -> None:
    user = signed_up(browser, server, f"quitter-{tag(viewport)}", viewport)
    gid = user.call("POST", "/practice", {"size": 9, "colour": "black", "level": 1})["id"]
    page = user.page
    page.goto(f"/games/{gid}")
    expect(page.locator("#turn")).to_contain_text("Your turn")
    page.click("#resign")
    page.click("#confirm-ok")
    expect(page.locator("#result-headline")).to_have_text(
        "Black resigned at move 1; White wins by resignation."
    )
    nothing_counted(page)
    fits(page, viewport)
    page.screenshot(path=str(artifacts / f"ending-resigned-{tag(viewport)}.png"), full_page=True)
    result = user.call("GET", f"/games/{gid}")["result"]
    assert (result["reason"], result["left"][0]["how"], result["left"][0]["ply"]) == ("resign", "resign", 1)
    user.close()


def test_a_colour_that_timed_out_is_named_above_the_count(browser: Browser, server: str) -> None:
    """Three colours: Red runs out of time at move 3, Black and White play on and pass; DipGo counts."""
    user = signed_up(browser, server, "watcher3", DESKTOP)
    black, white, red = (ApiPlayer.register(server, f"{n}3c") for n in ("black", "white", "red"))
    gid = black.call("POST", "/games", {"size": 9, "teams": 3, "team": 1, "seconds_per_move": 4})["id"]
    white.call("POST", f"/games/{gid}/join", {"team": 2})
    red.call("POST", f"/games/{gid}/join", {"team": 3})
    page = user.page
    page.goto(f"/games/{gid}")
    for player in (black, white, red):
        player.call("POST", f"/games/{gid}/confirm")
    black.play(gid, "E5")
    white.play(gid, "D4")
    wait_for(lambda: len(black.game(gid)["moves"]) == 3)  # Red's timeout
    black.play(gid, "C3")
    white.play(gid, "pass")
    black.play(gid, "pass")
    expect(page.locator("#result-headline")).to_have_text("Red timed out at move 3; Black wins by 1 point.")
    expect(page.locator(".result-card table.scores tbody tr")).to_have_count(3)
    user.close()


@pytest.mark.parametrize(
    ("viewport", "preset", "dame", "headline"),
    [
        pytest.param(DESKTOP, "chinese", ["C1"], "Black wins by 18.5 points.", id="desktop-area"),
        pytest.param(
            PHONE, "japanese", ["A1", "C1", "E1"], "Black wins by 17.5 points.", id="phone-territory"
        ),
    ],
)
def test_seki_stones_and_dame_are_marked_and_named(
    browser: Browser,
    server: str,
    artifacts: Path,
    viewport: ViewportSize,
    preset: str,
    dame: list[str],
    headline: str,
) -> None:
    user = signed_up(browser, server, f"seki-{tag(viewport)}", viewport)
    gid = user.call("POST", "/practice", {"size": 9, "mode": "local", "preset": preset})["id"]
    for move in seki_moves():
        user.call("POST", f"/games/{gid}/moves", {"move": move})
    page = user.page
    page.goto(f"/games/{gid}")
    expect(page.locator("#result-headline")).to_have_text(headline)
    note = page.locator("#seki-note")
    expect(note).to_have_text(
        "Seki: Black B1 A2 B2 C2, White D1 F1 D2 E2 F2 (alive, though surrounded: neither side can capture"
        f" the other; ringed on the board); dame: {' '.join(dame)} (count for nobody; a dash on the board)."
    )
    expect(page.locator(".dead-note")).to_have_text(
        "Dead stones were judged automatically by the estimator: none."
    )
    expect(page.locator(".board .seki-mark")).to_have_count(9)
    expect(page.locator(".board .dame-mark")).to_have_count(len(dame))
    expect(point(page, "B1")).to_have_attribute("aria-label", "B1: team 1 stone (black, square), in seki")
    expect(point(page, "D1")).to_have_attribute("aria-label", "D1: team 2 stone (white, circle), in seki")
    expect(point(page, "C1")).to_have_attribute("aria-label", "C1: empty, dame")
    expect(point(page, "D4")).to_have_attribute("aria-label", "D4: team 1 stone (black, square)")
    legend = page.locator("#mark-legend")
    expect(legend.locator("li")).to_have_text(["stone in seki", "dame: counts for nobody"])
    fits(page, viewport)
    page.locator(".board").screenshot(path=str(artifacts / f"ending-seki-{tag(viewport)}-board.png"))
    page.screenshot(path=str(artifacts / f"ending-seki-{tag(viewport)}.png"), full_page=True)
    # The marks go with the territory view.
    page.uncheck("#show-territory")
    expect(page.locator(".board .seki-mark")).to_have_count(0)
    expect(page.locator(".board .dame-mark")).to_have_count(0)
    expect(legend).to_be_hidden()
    user.close()
