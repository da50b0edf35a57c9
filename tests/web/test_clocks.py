"""Clocks players can read (issue 24): each team's clock next to its name, the one on move counting down on
the server's time, byo-yomi periods used up one after another, the Fischer increment, low time in colour
with one beep on the player's own clock (none when sounds are off), and the time control in the lobby and
on the dashboard; at 1280×800 and 390×844, and with the page's own clock five minutes off.

The times are short (seconds) so that a test sees a whole byo-yomi period go by.
"""

from __future__ import annotations

import re
import time
from datetime import datetime
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Browser, Locator, Page, ViewportSize, expect

from tests.web.ui import PHONE, User, play, signed_up

VIEWPORTS: dict[str, ViewportSize] = {"desktop": {"width": 1280, "height": 800}, "phone": PHONE}

# Counts the beeps: sound.js makes each one with an oscillator of the page's AudioContext.
AUDIO_SPY = """
window.__beeps = 0;
class SpyAudioContext {
  constructor() { this.state = 'running'; this.currentTime = 0; this.destination = {}; }
  resume() { return Promise.resolve(); }
  createOscillator() {
    return { type: '', frequency: { value: 0 }, connect() {}, start() { window.__beeps += 1; }, stop() {} };
  }
  createGain() {
    return { gain: { setValueAtTime() {}, exponentialRampToValueAtTime() {} }, connect() {} };
  }
}
window.AudioContext = SpyAudioContext;
window.webkitAudioContext = SpyAudioContext;
"""


@pytest.fixture(params=list(VIEWPORTS))
def viewport(request: pytest.FixtureRequest) -> str:
    return str(request.param)


def new_seat(browser: Browser, server: str, name: str, viewport: ViewportSize) -> User:
    """A player in a browser, signed up by the API, whose page counts its beeps (`beeps`)."""
    user = signed_up(browser, server, name, viewport)
    user.context.add_init_script(AUDIO_SPY)
    return user


def beeps(user: User) -> int:
    return int(user.page.evaluate("window.__beeps"))


def team_clock(page: Page, team: int) -> Locator:
    return page.locator(f'#clocks .team-clock[data-team="{team}"]')


def shown_seconds(text: str) -> int:
    """The seconds a clock shows: "04:59" -> 299, "1:00:00" -> 3600, "00:03 (2 periods)" -> 3."""
    match = re.match(r"^(?:(\d+):)?(\d\d):(\d\d)", text)
    assert match, text
    hours, minutes, seconds = (int(g) if g else 0 for g in match.groups())
    return hours * 3600 + minutes * 60 + seconds


def clock_seconds(page: Page, team: int) -> int:
    return shown_seconds(team_clock(page, team).locator(".time").inner_text())


def start(creator: User, others: list[tuple[User, int]], options: dict[str, Any]) -> int:
    gid = int(creator.call("POST", "/games", {"team": 1, "seconds_per_move": 600, **options})["id"])
    for seat, team in others:
        seat.call("POST", f"/games/{gid}/join", {"team": team})
    return gid


def confirm_all(gid: int, seats: list[User]) -> None:
    for seat in seats:
        seat.call("POST", f"/games/{gid}/confirm")


def test_byoyomi_periods_run_out_one_after_another(
    browser: Browser, server: str, artifacts: Path, viewport: str
) -> None:
    black, white = (
        new_seat(browser, server, f"{n}by{viewport}", VIEWPORTS[viewport]) for n in ("black", "white")
    )
    options = {"kind": "hex", "size": 5, "clock": "byoyomi", "main_time": 3, "periods": 3, "period_time": 5}
    gid = start(black, [], options)

    # The time control is on the game's row in the lobby and on the creator's dashboard.
    white.page.goto("/lobby")
    row = white.page.locator(f'.game-row[data-game="{gid}"]')
    expect(row.locator(".time-control")).to_have_text("Time: byo-yomi 3 s + 3×5 s, 10 min per move")
    black.page.goto("/dashboard")
    mine = black.page.locator(f'#my-games .game-row[data-game="{gid}"]')
    expect(mine.locator(".time-control")).to_have_text("Time: byo-yomi 3 s + 3×5 s, 10 min per move")

    white.call("POST", f"/games/{gid}/join", {"team": 2})
    for seat in (black, white):
        seat.page.goto(f"/games/{gid}")
        expect(seat.page.locator("#confirm")).to_be_visible()
    confirm_all(gid, [black, white])

    # Black's clock runs on both pages, next to its player's name: main time first, then the periods.
    for seat in (black, white):
        clock = team_clock(seat.page, 1)
        expect(clock).to_have_class(re.compile(r"\brunning\b"))
        expect(clock.locator(".name")).to_have_text(f"blackby{viewport}")
        expect(clock).to_have_attribute("title", "Black")
        expect(team_clock(seat.page, 2)).to_have_text(re.compile(rf"whiteby{viewport}\s*00:03 \+ 3×5 s$"))
    page = white.page
    expect(team_clock(page, 1).locator(".time")).to_have_text(re.compile(r"^00:0\d \(3 periods\)$"))
    # Main time is over: the first period runs out and the second one counts down in its turn.
    second = team_clock(page, 1).locator(".time")
    expect(second).to_have_text(re.compile(r"^00:0[34] \(2 periods\)$"))
    before = shown_seconds(second.inner_text())
    page.wait_for_timeout(1300)
    after = shown_seconds(second.inner_text())
    assert 1 <= before - after <= 2, (before, after)
    expect(second).to_contain_text("(2 periods)")
    expect(team_clock(page, 1)).to_have_class(re.compile(r"\blow\b"))  # a 5 s period is under 10 s
    page.screenshot(path=str(artifacts / f"clocks-byoyomi-{viewport}.png"))

    black.call("POST", f"/games/{gid}/moves", {"move": "b3"})
    # The server agrees: one period used; Black's clock stops with a fresh period, White's main time runs.
    assert black.call("GET", f"/games/{gid}")["clocks"]["1"] == {"main": 0.0, "periods": 2}
    for seat in (black, white):
        expect(team_clock(seat.page, 1).locator(".time")).to_have_text("00:05 (2 periods)")
        expect(team_clock(seat.page, 1)).not_to_have_class(re.compile(r"\brunning\b"))
        expect(team_clock(seat.page, 2)).to_have_class(re.compile(r"\brunning\b"))
        expect(team_clock(seat.page, 2).locator(".time")).to_have_text(re.compile(r"^00:0[0-3] \+ 3×5 s$"))
    for seat in (black, white):
        seat.close()


def test_fischer_increment_and_low_time(
    browser: Browser, server: str, artifacts: Path, viewport: str
) -> None:
    black, white = (
        new_seat(browser, server, f"{n}fi{viewport}", VIEWPORTS[viewport]) for n in ("black", "white")
    )
    # White mutes the sounds on the settings page.
    white.page.goto("/settings")
    expect(white.page.locator("#sound")).to_be_checked()
    white.page.uncheck("#sound")
    white.page.click("#save-settings")
    expect(white.page.locator("body")).to_contain_text("Settings saved.")
    assert white.call("GET", "/me")["user"]["settings"]["sound"] is False
    # 14 s of main time: low time under 10 s (lichess: an eighth of the time, at least 10 s).
    gid = start(black, [(white, 2)], {"size": 9, "clock": "fischer", "main_time": 14, "increment": 6})
    for seat in (black, white):
        seat.page.goto(f"/games/{gid}")
        expect(seat.page.locator("#confirm")).to_be_visible()
    confirm_all(gid, [black, white])
    page = black.page

    # The running clock read at two moments while Black is on move.
    clock = team_clock(page, 1)
    expect(clock).to_have_class(re.compile(r"\brunning\b"))
    expect(clock).not_to_have_class(re.compile(r"\blow\b"))
    first = clock_seconds(page, 1)
    page.wait_for_timeout(1500)
    second = clock_seconds(page, 1)
    assert 11 <= first <= 14 and 1 <= first - second <= 2, (first, second)
    expect(team_clock(page, 2).locator(".time")).to_have_text("00:14")  # White's clock waits

    # Low time: red on both pages, one beep for Black, whose clock it is; none for White.
    for seat in (black, white):
        expect(team_clock(seat.page, 1)).to_have_class(re.compile(r"\blow\b"))
    expect(page.locator("#clock")).to_have_class(re.compile(r"\blow\b"))
    page.wait_for_function("window.__beeps === 1")
    low = clock_seconds(page, 1)
    assert low <= 9
    page.screenshot(path=str(artifacts / f"clocks-low-{viewport}.png"))

    # Black moves: six seconds come back, the clock stops and is no longer low.
    play(page, "E5", 1)
    stored = black.call("GET", f"/games/{gid}")["clocks"]["1"]["main"]
    assert 10 < stored < 16  # 14 s, less the 4 to 8 s Black took, plus 6
    for seat in (black, white):
        expect(team_clock(seat.page, 1).locator(".time")).to_have_text(f"00:{int(stored):02d}")
        expect(team_clock(seat.page, 1)).not_to_have_class(re.compile(r"\b(low|running)\b"))
        expect(team_clock(seat.page, 2)).to_have_class(re.compile(r"\brunning\b"))
    assert clock_seconds(page, 1) > low

    # White's own clock goes low on White's page: red, but silent (sounds are off); Black hears nothing more.
    expect(team_clock(white.page, 2)).to_have_class(re.compile(r"\blow\b"))
    white.page.wait_for_timeout(600)
    assert beeps(white) == 0
    assert beeps(black) == 1
    for seat in (black, white):
        seat.close()


def test_a_page_whose_clock_is_five_minutes_off_shows_the_server_time(
    browser: Browser, server: str, viewport: str
) -> None:
    """Three colours: each team's clock is listed, only the one on move runs, counted on the server's time
    whatever this computer's clock says (it is set 5 minutes ahead, then 5 minutes behind)."""
    red, green, blue = (
        new_seat(browser, server, f"{n}sk{viewport}", VIEWPORTS[viewport]) for n in ("red", "green", "blue")
    )
    page = red.page
    page.clock.install(time=time.time() + 300)
    gid = start(red, [(green, 2), (blue, 3)], {"size": 9, "teams": 3, "clock": "fischer", "main_time": 600})
    page.goto(f"/games/{gid}")
    expect(page.locator("#confirm")).to_be_visible()
    assert page.evaluate("Date.now() / 1000") - time.time() > 299  # the page's clock is off
    confirm_all(gid, [red, green, blue])

    snap = red.call("GET", f"/games/{gid}")
    started = datetime.fromisoformat(snap["turn_started_at"]).timestamp()

    def check() -> None:
        expected = 600 - (time.time() - started)
        shown = clock_seconds(page, 1)
        assert abs(shown - expected) <= 1, (shown, expected)
        deadline = datetime.fromisoformat(snap["deadline"]).timestamp() - time.time()
        assert abs(shown_seconds(page.locator("#clock").inner_text()) - deadline) <= 1

    expect(team_clock(page, 1)).to_have_class(re.compile(r"\brunning\b"))
    for team in (2, 3):
        expect(team_clock(page, team).locator(".time")).to_have_text("10:00")
        expect(team_clock(page, team)).not_to_have_class(re.compile(r"\brunning\b"))
    expect(team_clock(page, 3).locator(".name")).to_have_text("Red")  # the team by its one name
    page.wait_for_timeout(1200)
    check()
    page.clock.set_system_time(time.time() - 300)  # the computer's clock jumps 10 minutes back
    page.wait_for_timeout(1200)
    assert time.time() - page.evaluate("Date.now() / 1000") > 299
    check()
    for seat in (red, green, blue):
        seat.close()
