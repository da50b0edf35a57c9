"""The journeys without a rough edge (issue 32): one name for a game and for each team on every page, a
profile that tells partners from opponents."""

from __future__ import annotations

import pytest
from playwright.sync_api import Browser, Route, ViewportSize, expect

from tests.web.support import ApiPlayer, start_game
from tests.web.test_profiles import OPENING
from tests.web.ui import VIEWPORTS, open_browser, signed_up, start_practice, tag, wait_moves


@pytest.mark.parametrize("viewport", VIEWPORTS)
def test_a_pair_game_is_named_alike_everywhere_and_partners_are_no_opponents(
    browser: Browser, server: str, viewport: ViewportSize
) -> None:
    """ann & ben against cat & dan: cat's profile lists ann and ben as opponents and dan as partner, and the
    dashboard, the profile and the game page name the game and the team on move alike."""
    t = tag(viewport)
    cat = signed_up(browser, server, f"catpair{t}", viewport)
    ann, ben, dan = (ApiPlayer.register(server, f"{n}pair{t}") for n in ("ann", "ben", "dan"))
    options = {"size": 9, "teams": 2, "players_per_team": 2, "seconds_per_move": 3600}
    gid = start_game([ann, cat, ben, dan], options, teams=[1, 2, 1, 2])
    name = f"annpair{t} & benpair{t} vs catpair{t} & danpair{t}"
    page = cat.page

    page.goto(f"/users/{cat.name}")
    item = page.locator(f'#current-games li[data-game="{gid}"]')
    expect(item.locator(".game-name")).to_have_text(name)
    expect(item.locator(".opponents")).to_have_text(f"vs annpair{t}, benpair{t}")
    expect(item.locator(".partners")).to_have_text(f"with danpair{t}")

    page.goto("/dashboard")
    row = page.locator(f'#my-games .game-row[data-game="{gid}"]')
    expect(row.locator(".game-name")).to_have_text(name)
    expect(row).to_contain_text("Black to move")  # ann's team: Black, as on the game page

    row.locator(".game-name").click()
    expect(page.locator("h1")).to_have_text(name)
    expect(page.locator("#turn")).to_contain_text("Black to move")
    cat.close()


# Each palette's board of three colours with two white stones, the second one just played: the sizes (in the
# viewport) of the last-move marker, of the white stones' own mark (a ring) and of a stone, and the marker's
# and the stone's outline widths.
MARKER_VS_RING = """async (palettes) => {
  const { BoardView } = await import('/static/js/board.js');
  const out = {};
  for (const palette of palettes) {
    const host = document.createElement('div');
    host.style.width = '300px';
    document.body.append(host);
    const board = new BoardView(host);
    const cells = Array(25).fill(0);
    Object.assign(cells, { 6: 1, 8: 2, 12: 3, 18: 2 });
    board.render({ size: 5, board: cells, palette, coords: false, last: 18 });
    const svg = host.querySelector('svg');
    const width = (el) => el.getBoundingClientRect().width;
    const scale = width(svg) / svg.viewBox.baseVal.width;
    const stroke = (el) => parseFloat(getComputedStyle(el).strokeWidth) * scale;
    const marker = svg.querySelector('.last-move');
    const white = svg.querySelector('.stone[data-team="2"]');
    out[palette] = {
      markers: svg.querySelectorAll('.last-move').length,
      marker: width(marker), markerStroke: stroke(marker),
      ring: width(white.querySelector('path')), stone: width(white.querySelector('circle')),
      rimStroke: stroke(white.querySelector('circle')),
    };
    host.remove();
  }
  return out;
}"""


@pytest.mark.parametrize("viewport", VIEWPORTS)
def test_the_last_move_marker_is_no_white_stones_ring(
    browser: Browser, server: str, viewport: ViewportSize
) -> None:
    """In a game of three colours White's mark is a ring: the last move's marker is a broad band along the
    stone's edge, far wider than that ring and than any stone's outline, in every palette."""
    t = tag(viewport)
    watcher = signed_up(browser, server, f"ringwatch{t}", viewport)
    players = [ApiPlayer.register(server, f"{n}ring{t}") for n in ("a", "b", "c")]
    gid = start_game(players, {"size": 9, "teams": 3, "seconds_per_move": 3600})
    for player, move in zip(players, ("E5", "C3", "G7"), strict=True):
        player.play(gid, move)
    players[0].play(gid, "D4")
    players[1].play(gid, "C7")  # White's second stone: the last move
    page = watcher.page
    page.goto(f"/games/{gid}")
    expect(page.locator(".board .stone")).to_have_count(5)
    marker = page.locator(".board .last-move")
    expect(marker).to_have_count(1)
    white = page.locator('.board .stone[data-team="2"]')
    expect(white).to_have_count(2)
    marker_box, ring_box = marker.bounding_box(), white.first.locator("path").bounding_box()
    stone_box = white.last.locator("circle").bounding_box()
    assert marker_box and ring_box and stone_box
    assert marker_box["width"] > 2.3 * ring_box["width"] and marker_box["width"] > 0.8 * stone_box["width"]

    palettes = ["classic", "okabe-ito", "tol-bright", "tol-muted", "high-contrast"]
    for palette, seen in page.evaluate(MARKER_VS_RING, palettes).items():
        assert seen["markers"] == 1, palette
        assert seen["marker"] > 2.3 * seen["ring"], (palette, seen)  # far outside White's ring
        assert seen["marker"] > 0.8 * seen["stone"], (palette, seen)  # along the stone's edge
        assert seen["markerStroke"] > 2 * seen["rimStroke"], (palette, seen)  # no outline is that broad
    watcher.close()


@pytest.mark.parametrize("viewport", VIEWPORTS)
def test_live_cards_follow_the_moves_for_a_visitor(
    browser: Browser, server: str, viewport: ViewportSize
) -> None:
    """A visitor (no login) on the watch page and on the home page: the live card of a game in progress
    shows each move's board and count as it is played, without a reload or a poll."""
    t = tag(viewport)
    ann, ben = (ApiPlayer.register(server, f"{n}tv{t}") for n in ("ann", "ben"))
    gid = start_game([ann, ben], {"size": 9, "seconds_per_move": 3600})
    visitor = open_browser(browser, server, f"visitortv{t}", viewport)
    page = visitor.page
    turns = iter([(ann, "E5"), (ben, "C3"), (ann, "G7"), (ben, "C7"), (ann, "G3"), (ben, "D4")])
    for where, cards, before in (("/watch", "#live-games", 0), ("/", "#home-live", 3)):
        page.goto(where)
        card = page.locator(f'{cards} .live-row[data-game="{gid}"]')
        expect(card).to_contain_text(f"unrated · {before} moves")
        for player, move in (next(turns) for _ in range(3)):
            player.play(gid, move)
        after = before + 3
        expect(card).to_contain_text(f"unrated · {after} moves")
        expect(card.locator(".thumb-stone")).to_have_count(after)
        label = f"Game {gid}: the board after {after} moves"
        expect(card.locator("svg.thumbnail")).to_have_attribute("aria-label", label)
    visitor.close()


# A record whose moves carry comments: the first on two lines, the third on a node of its own after it.
COMMENTED = (
    "(;GM[1]FF[4]CA[UTF-8]SZ[9]PB[Shusaku]PW[Gennan]RE[B+R]"
    ";B[ee]C[A calm start.\nThe centre first.];W[cc];B[gc];C[Too slow: <b>tenuki</b> was better.];W[cg])"
)


@pytest.mark.parametrize("viewport", VIEWPORTS)
def test_the_game_page_shows_the_comment_of_the_move_on_screen(
    browser: Browser, server: str, viewport: ViewportSize
) -> None:
    """An uploaded record's comments (SGF C[]): the game page shows the one of the move on screen, as the
    text it is (line breaks kept, markup as written), beside the board; none for a move without."""
    t = tag(viewport)
    user = signed_up(browser, server, f"commenter{t}", viewport)
    gid = user.call("POST", "/games/upload", {"sgf": COMMENTED})["id"]
    page = user.page
    page.goto(f"/games/{gid}?move=1")
    comment = page.locator("#move-comment")
    expect(comment).to_have_text("A calm start.\nThe centre first.")
    assert comment.evaluate("(el) => getComputedStyle(el).whiteSpace") == "pre-wrap"
    page.get_by_role("button", name="Next move").click()
    expect(comment).to_be_hidden()
    page.get_by_role("button", name="Next move").click()
    expect(comment).to_have_text("Too slow: <b>tenuki</b> was better.")
    comment.scroll_into_view_if_needed()
    expect(comment).to_be_in_viewport()
    expect(comment.locator("b")).to_have_count(0)
    page.get_by_role("button", name="Last move").click()
    expect(comment).to_be_hidden()
    user.close()


UNTOUCHED = """
window.audioContexts = 0;
const Real = window.AudioContext;
window.AudioContext = class extends Real {
  constructor(...args) { super(...args); window.audioContexts += 1; }
};
Object.defineProperty(navigator, 'userActivation', { value: { hasBeenActive: false, isActive: false } });
"""


@pytest.mark.parametrize("viewport", VIEWPORTS)
def test_a_visitors_console_stays_clean_and_register_says_what_it_does(
    browser: Browser, server: str, viewport: ViewportSize
) -> None:
    """A visitor's every public page logs no error and no warning (no 401 for the session check, no audio
    refused before a gesture, while a game they watch is played); /leaderboards opens on the key people are
    rated in; Register is busy while its request runs, and the server's refusal reads as a sentence."""
    t = tag(viewport)
    ann, ben = (ApiPlayer.register(server, f"{n}clean{t}") for n in ("ann", "ben"))
    gid = start_game([ann, ben], {"size": 9, "rated": True, "seconds_per_move": 3600})
    for n, move in enumerate(OPENING[:-2]):  # enough moves each for the game to be rated
        (ann, ben)[n % 2].play(gid, move)
    visitor = open_browser(browser, server, f"visitorclean{t}", viewport)
    page = visitor.page
    # Every audio context the page makes: Chromium warns for each one made or resumed before the person
    # touched the page. (A page Playwright opens counts as touched: here it is one that was not.)
    page.add_init_script(UNTOUCHED)
    logged: list[str] = []
    page.on("console", lambda m: m.type in ("error", "warning") and logged.append(f"{m.type}: {m.text}"))
    pages = ["/", "/watch", "/archive", f"/users/{ann.username}", "/login", "/register", "/lobby", "/new"]
    for path in pages:
        page.goto(path)
        expect(page.locator('body[data-ready="true"]')).to_have_count(1)
        expect(page.locator("#nav-login")).to_be_attached()  # drawn for a visitor
    page.goto(f"/games/{gid}")
    wait_moves(page, len(OPENING) - 2)
    for n, move in enumerate(OPENING[-2:]):
        (ann, ben)[n % 2].play(gid, move)
    wait_moves(page, len(OPENING))  # moves arrive on a page never touched: no sound is tried
    assert page.evaluate("window.audioContexts") == 0
    page.locator("#move-counter").click()  # touched: the next stone is heard
    assert page.evaluate("async () => (await import('/static/js/sound.js')).moveSound()") is True
    assert page.evaluate("window.audioContexts") == 1

    ann.call("POST", f"/games/{gid}/resign")  # a rated 9×9 game: go-9 ratings, whatever 19×19 holds
    page.goto("/leaderboards")
    expect(page.locator("h1")).to_have_text("Leaderboard: Go 9×9")
    assert logged == [], logged

    page.goto("/register")
    page.fill("#username", ann.username)  # taken
    page.fill("#password", "correct horse")
    release: list[Route] = []

    def hold(route: Route) -> None:  # the request waits until the page has been seen busy
        release.append(route)

    page.route("**/api/v1/accounts", hold)
    page.click("#auth-submit")
    button = page.locator("#auth-submit")
    expect(button).to_be_disabled()
    expect(button).to_have_attribute("aria-busy", "true")
    while not release:
        page.wait_for_timeout(50)
    release[0].continue_()
    expect(page.locator("#auth-error")).to_have_text("Username: already taken.")
    expect(button).to_be_enabled()
    expect(button).not_to_have_attribute("aria-busy", "true")
    visitor.close()


@pytest.mark.parametrize("viewport", VIEWPORTS)
def test_a_guests_dashboard_points_to_what_guests_can_do(
    browser: Browser, server: str, viewport: ViewportSize
) -> None:
    """A guest (a visitor who played the computer) with no game left: the dashboard offers another game
    against the computer and registering, not the lobby, which is for members."""
    guest = open_browser(browser, server, f"guestdash{tag(viewport)}", viewport)
    page = guest.page
    start_practice(page, size="9")
    page.click("#resign")
    page.click("#confirm-ok")
    expect(page.locator(".result-card")).to_be_visible()
    page.goto("/dashboard")
    offer = page.locator("#guest-next")
    expect(offer.get_by_role("link", name="Play the computer")).to_have_attribute("href", "/new")
    expect(offer.get_by_role("link", name="register")).to_have_attribute("href", "/register")
    expect(page.locator('#my-games a[href="/lobby"], #my-games a[href="/"]')).to_have_count(0)
    guest.close()
