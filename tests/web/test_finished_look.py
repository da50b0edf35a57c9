"""The game page's finished look, at desktop and phone size: lit stones without shapes in black-and-white
games (shapes with three colours, on colour-blind palettes or by the setting), the last move's ring on its
stone, titles and clocks that name the players, and a move sound that can be muted and stays muted."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Browser, Locator, Page, ViewportSize, expect

from tests.web.support import ApiPlayer, start_game
from tests.web.ui import DESKTOP, PHONE, User, open_browser, point, signed_up, stone_paints, wait_moves

VIEWPORTS: dict[str, ViewportSize] = {"desktop": DESKTOP, "phone": PHONE}

# Counts the sounds: the move sound is one buffer source of the page's AudioContext, the low-time beep an
# oscillator (tests/web/test_clocks.py counts those).
AUDIO_SPY = """
window.__clicks = 0;
class SpyAudioContext {
  constructor() {
    Object.assign(this, { state: 'running', currentTime: 0, destination: {}, sampleRate: 44100 });
  }
  resume() { return Promise.resolve(); }
  createBuffer(channels, length, rate) {
    const data = new Float32Array(length);
    return { sampleRate: rate, getChannelData: () => data };
  }
  createBufferSource() { return { buffer: null, connect() {}, start() { window.__clicks += 1; } }; }
  createGain() {
    return { gain: { value: 1, setValueAtTime() {}, exponentialRampToValueAtTime() {} }, connect() {} };
  }
  createOscillator() { return { frequency: { value: 0 }, connect() {}, start() {}, stop() {} }; }
}
window.AudioContext = SpyAudioContext;
window.webkitAudioContext = SpyAudioContext;
"""


@pytest.fixture(params=list(VIEWPORTS))
def viewport(request: pytest.FixtureRequest) -> str:
    return str(request.param)


def centre(locator: Locator) -> tuple[float, float]:
    box = locator.bounding_box()
    assert box is not None, f"{locator} is not shown"
    return box["x"] + box["width"] / 2, box["y"] + box["height"] / 2


def expect_last_move_at(page: Page, vertex: str, ink: str) -> None:
    """One last-move ring, drawn in `ink` (the colour that shows on that stone), centred on the point's
    square in the viewport."""
    ring = page.locator(".board .last-move")
    expect(ring).to_have_count(1)
    expect(ring).to_have_attribute("data-ink", ink)
    cell = point(page, vertex)
    cell.scroll_into_view_if_needed()
    (x, y), (cx, cy) = centre(ring), centre(cell)
    assert abs(x - cx) < 1 and abs(y - cy) < 1, f"ring at {x:.1f},{y:.1f}; {vertex} at {cx:.1f},{cy:.1f}"
    size = page.viewport_size
    assert size is not None and 0 <= x <= size["width"] and 0 <= y <= size["height"]


def expect_stones(page: Page, count: int, marks: int) -> list[dict[str, Any]]:
    """`count` stones on the board, each painted with a radial gradient and carrying `marks` team shapes."""
    expect(page.locator(".board .stone")).to_have_count(count)
    paints = stone_paints(page)
    for paint in paints:
        assert paint["gradient"] == "radialGradient", paint
        assert paint["marks"] == marks, paint
    return paints


def two_player_game(alice: User, bob: ApiPlayer) -> int:
    return start_game([alice, bob], {"size": 9, "clock": "fischer", "main_time": 600, "increment": 5})


def save_settings(page: Page, check: dict[str, bool], palette: str | None = None) -> None:
    """Change settings on the settings page, as a user would."""
    page.goto("/settings")
    for box, on in check.items():
        page.locator(f"#{box}").set_checked(on)
    if palette:
        page.select_option("#palette", palette)
    page.click("#save-settings")
    expect(page.locator("#toast")).to_have_text("Settings saved.")


def test_two_players_named_lit_stones_and_last_move(
    browser: Browser, server: str, artifacts: Path, viewport: str
) -> None:
    alice = signed_up(browser, server, f"alook{viewport}", VIEWPORTS[viewport])
    bob = ApiPlayer.register(server, f"blook{viewport}")
    gid = two_player_game(alice, bob)
    alice.call("POST", f"/games/{gid}/moves", {"move": "E5"})
    bob.play(gid, "C3")
    page = alice.page
    page.goto(f"/games/{gid}")
    wait_moves(page, 2)

    # The players by name, in the title and beside their clocks (the team's colour is the clock's swatch).
    expect(page.locator("h1")).to_have_text(f"alook{viewport} vs blook{viewport}")
    expect(page).to_have_title(f"alook{viewport} vs blook{viewport} · Miai")
    expect(page.locator('#clocks .team-clock[data-team="1"] .name')).to_have_text(f"alook{viewport}")
    expect(page.locator('#clocks .team-clock[data-team="2"] .name')).to_have_text(f"blook{viewport}")
    expect(page.locator("#clocks")).not_to_contain_text("Team")

    # Black and white stones: lit, in their own colours, without shapes; the last one ringed in black.
    paints = expect_stones(page, 2, marks=0)
    assert {p["stops"][1] for p in paints} == {"#111111", "#f4f2ec"}  # the classic palette's colours
    expect_last_move_at(page, "C3", "#000000")
    page.locator(".board").screenshot(path=str(artifacts / f"look-two-colours-{viewport}.png"))
    alice.call("POST", f"/games/{gid}/moves", {"move": "G7"})
    wait_moves(page, 3)
    expect_last_move_at(page, "G7", "#ffffff")  # the ring moved, white on the black stone
    # The move list: each move after its stone (the colour's name is there for screen readers only).
    moves = page.locator("#move-list li")
    expect(moves).to_have_text(["Black E5", "White C3", "Black G7"])
    expect(moves.locator(".swatch")).to_have_count(3)
    expect(moves.locator(".sr-only")).to_have_text(["Black ", "White ", "Black "])

    # Somebody else watching reads both names.
    visitor = open_browser(browser, server, f"vlook{viewport}", VIEWPORTS[viewport])
    visitor.page.goto(f"/games/{gid}")
    expect(visitor.page.locator("h1")).to_have_text(f"alook{viewport} vs blook{viewport}")
    visitor.context.close()

    # The shapes come back when the player asks for them, or with a colour-blind safe palette.
    save_settings(page, {"stone-marks": True})
    page.goto(f"/games/{gid}")
    wait_moves(page, 3)
    expect_stones(page, 3, marks=1)
    save_settings(page, {"stone-marks": False}, palette="tol-bright")
    page.goto(f"/games/{gid}")
    wait_moves(page, 3)
    paints = expect_stones(page, 3, marks=1)
    assert {p["stops"][1] for p in paints} == {"#000000", "#ffffff"}  # Tol bright's black and white
    alice.close()


def test_three_colours_carry_shapes_and_list_players(
    browser: Browser, server: str, artifacts: Path, viewport: str
) -> None:
    alice = signed_up(browser, server, f"a3look{viewport}", VIEWPORTS[viewport])
    bob, carol = (ApiPlayer.register(server, f"{n}3look{viewport}") for n in ("b", "c"))
    body = {"size": 9, "teams": 3, "clock": "fischer", "main_time": 600, "increment": 5}
    gid = start_game([alice, bob, carol], body)
    alice.call("POST", f"/games/{gid}/moves", {"move": "E5"})
    bob.play(gid, "C3")
    carol.play(gid, "G7")
    page = alice.page
    page.goto(f"/games/{gid}")
    wait_moves(page, 3)

    expect(page.locator("h1")).to_have_text(f"a3look{viewport} vs b3look{viewport} vs c3look{viewport}")
    clock = page.locator('#clocks .team-clock[data-team="3"]')
    expect(clock.locator(".name")).to_have_text("Red")  # the team keeps its name...
    expect(clock.locator(".players")).to_have_text(f"c3look{viewport}")  # ...and lists its players
    paints = expect_stones(page, 3, marks=1)  # three colours: every stone carries its shape
    assert {p["stops"][1] for p in paints} == {"#111111", "#f4f2ec", "#d32f2f"}
    expect_last_move_at(page, "G7", "#ffffff")
    page.locator(".board").screenshot(path=str(artifacts / f"look-three-colours-{viewport}.png"))
    alice.close()


def test_practice_games_are_titled_as_such(browser: Browser, server: str, viewport: str) -> None:
    user = signed_up(browser, server, f"plook{viewport}", VIEWPORTS[viewport])
    page = user.page
    computer = user.call("POST", "/practice", {"mode": "computer", "size": 9, "level": 3})["id"]
    page.goto(f"/games/{computer}")
    expect(page.locator("h1")).to_have_text(f"plook{viewport} vs Miai, level 3")
    expect(page).to_have_title(f"plook{viewport} vs Miai, level 3 · Miai")
    summary = page.locator(".summary")
    expect(summary).to_have_text(re.compile(r"^9×9 · 2 colours · Dgo"))
    expect(summary).not_to_contain_text("per move")  # no clock to speak of, and private by nature
    expect(summary).not_to_contain_text("private")
    expect(page.locator("#status")).not_to_contain_text("Time left")

    local = user.call("POST", "/practice", {"mode": "local", "size": 9})["id"]
    page.goto(f"/games/{local}")
    expect(page.locator("h1")).to_have_text("Local game: two players")
    expect(page).to_have_title("Local game: two players · Miai")
    user.close()


def clicks(page: Page) -> int:
    return int(page.evaluate("window.__clicks"))


def test_move_sound_and_its_mute_button_are_remembered(browser: Browser, server: str, viewport: str) -> None:
    alice = signed_up(browser, server, f"slook{viewport}", VIEWPORTS[viewport])
    alice.context.add_init_script(AUDIO_SPY)
    bob = ApiPlayer.register(server, f"tlook{viewport}")
    gid = two_player_game(alice, bob)
    alice.call("POST", f"/games/{gid}/moves", {"move": "E5"})
    page = alice.page
    page.goto(f"/games/{gid}")
    wait_moves(page, 1)
    toggle = page.locator("#sound-toggle")
    expect(toggle).to_have_text("Sound on")
    assert clicks(page) == 0  # loading the game is silent

    bob.play(gid, "C3")  # a move arriving live clicks
    wait_moves(page, 2)
    assert clicks(page) == 1

    toggle.click()  # mute: remembered in the account
    expect(toggle).to_have_text("Sound off")
    expect(toggle).to_be_enabled()
    assert alice.call("GET", "/me")["user"]["settings"]["sound"] is False
    alice.call("POST", f"/games/{gid}/moves", {"move": "G7"})  # from another device
    bob.play(gid, "D4")
    wait_moves(page, 4)
    assert clicks(page) == 1

    page.reload()
    wait_moves(page, 4)
    expect(toggle).to_have_text("Sound off")
    alice.call("POST", f"/games/{gid}/moves", {"move": "C7"})
    wait_moves(page, 5)
    assert clicks(page) == 0
    page.goto("/settings")  # the same setting on the settings page
    expect(page.locator("#sound")).not_to_be_checked()

    page.goto(f"/games/{gid}")
    wait_moves(page, 5)
    toggle.click()
    expect(toggle).to_have_text("Sound on")
    bob.play(gid, "G3")
    wait_moves(page, 6)
    assert clicks(page) == 1

    # A visitor (not logged in) mutes too: remembered on this browser.
    visitor = open_browser(browser, server, f"ulook{viewport}", VIEWPORTS[viewport])
    visitor.context.add_init_script(AUDIO_SPY)
    watcher = visitor.page
    watcher.goto(f"/games/{gid}")
    wait_moves(watcher, 6)
    watcher.locator("#sound-toggle").click()
    expect(watcher.locator("#sound-toggle")).to_have_text("Sound off")
    watcher.reload()
    wait_moves(watcher, 6)
    expect(watcher.locator("#sound-toggle")).to_have_text("Sound off")
    alice.call("POST", f"/games/{gid}/moves", {"move": "E3"})
    wait_moves(watcher, 7)
    assert clicks(watcher) == 0
    for user in (alice, visitor):
        user.close()
