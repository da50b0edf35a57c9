"""Profiles and leaderboards, at 1280×800 and 390×844: two members play rated 9×9 games until their ratings
settle; one more rated game to a result shows on both profiles (the new rating, one more point on the graph,
the winner's rating up and the loser's down); the Go 9×9 leaderboard ranks them; a challenge from a profile
opens the create form prefilled with the suggested handicap. And the badges, and pages for names that are not
there."""

from __future__ import annotations

import re
import sqlite3
from datetime import datetime, timedelta

import pytest
from playwright.sync_api import Browser, Page, ViewportSize, expect

from tests.web.support import database_file, start_game
from tests.web.ui import DESKTOP, VIEWPORTS, User, nav, signed_up

# Glicko-2 from 1500 ± 350: after 19 games between the two (alice winning three of four) both deviations are
# under 110, so both ratings are settled and on the leaderboard (docs/api.md, Ratings), and they are about
# four ranks apart: on 9×9 (six ranks a stone) OGS would have bob take Black without komi.
SETTLING_GAMES = 18
PAIR_ALLOWANCE = 3  # rated games between the same two players in 24 hours (docs/api.md, Ratings)

# Ten moves a side: a game resigned sooner is not rated on 9×9 (docs/api.md, Ratings)
OPENING = tuple(
    m
    for pair in zip(
        ("C3", "C7", "E5", "A3", "B3", "D3", "F3", "H3", "J3", "A4"),
        ("G7", "G3", "E3", "A7", "B7", "D7", "F7", "H7", "J7", "A6"),
        strict=True,
    )
    for m in pair
)


def a_day_later(base: str, names: tuple[str, str]) -> None:
    """As if a day had passed since the two players' rated games so far: the server counts only
    `PAIR_ALLOWANCE` of them in 24 hours, and these two play 19 to settle their ratings. Their rating
    history is moved a day back, in the format SQLAlchemy stores times in SQLite."""
    with sqlite3.connect(database_file(base)) as db:
        rows = db.execute(
            "SELECT h.id, h.finished_at FROM rating_history h JOIN users u ON u.id = h.user_id"
            " WHERE u.username IN (?, ?)",
            names,
        ).fetchall()
        for row_id, moment in rows:
            earlier = datetime.fromisoformat(moment) - timedelta(days=1)
            db.execute(
                "UPDATE rating_history SET finished_at = ? WHERE id = ?",
                (earlier.strftime("%Y-%m-%d %H:%M:%S.%f"), row_id),
            )


def rated_game(loser: User, winner: User) -> int:
    """A rated 9×9 game: `loser` creates it as Black, `winner` joins, both confirm, the `OPENING` is played
    and Black resigns on its turn. Its id."""
    gid = start_game([loser, winner], {"size": 9, "rated": True})
    for n, point in enumerate(OPENING):
        (loser, winner)[n % 2].call("POST", f"/games/{gid}/moves", {"move": point})
    loser.call("POST", f"/games/{gid}/resign")
    return gid


def go9(page: Page) -> tuple[int, int]:
    """The Go 9×9 rating shown on the open profile, and the points of its graph."""
    card = page.locator('.rating[data-kind-key="go-9"]')
    expect(card).to_be_visible()
    value = int(card.locator(".rating-value").inner_text().split()[0])
    points = int(card.locator(".rating-graph").get_attribute("data-points") or "0")
    assert card.locator(".rating-graph .point").count() == points
    return value, points


def assert_fits_width(page: Page) -> None:
    width = page.evaluate("document.documentElement.scrollWidth")
    size = page.viewport_size
    assert size is not None
    assert width <= size["width"], f"the page is {width}px wide in a {size['width']}px window"


@pytest.mark.parametrize("viewport", VIEWPORTS)
def test_a_rated_game_moves_both_profiles_and_the_leaderboard_ranks_them(
    browser: Browser, server: str, viewport: ViewportSize
) -> None:
    t = "d" if viewport is DESKTOP else "p"
    alice, bob = (signed_up(browser, server, f"{name}rank{t}", viewport) for name in ("alice", "bob"))
    for n in range(1, SETTLING_GAMES + 1):
        loser, winner = (alice, bob) if n % 4 == 0 else (bob, alice)
        rated_game(loser, winner)
        if n % PAIR_ALLOWANCE == 0:
            a_day_later(server, (alice.name, bob.name))

    # alice opens her page from the nav bar, bob his by its address.
    page = alice.page
    page.goto("/")
    nav(page, "#nav-user")
    expect(page).to_have_url(re.compile(rf"/users/{alice.name}$"))
    expect(page.locator("#profile-name")).to_have_text(alice.name)
    alice_before, points_before = go9(page)
    provisional = page.locator('.rating[data-kind-key="go-9"] .tag.provisional')
    expect(provisional).to_have_count(1)  # 18 games: the deviation is still 110 or more
    assert points_before == SETTLING_GAMES
    expect(page.locator("#record")).to_contain_text("Go")
    archive = page.get_by_role("link", name=f"All finished games of {alice.name}")
    expect(archive).to_have_attribute("href", f"/archive?player={alice.name}")
    bob.page.goto(f"/users/{bob.name}")
    bob_before, _ = go9(bob.page)

    # The last game: bob plays Black and resigns.
    last = rated_game(bob, alice)
    page.reload()
    alice_after, points_after = go9(page)
    expect(provisional).to_have_count(0)  # the 19th game settles it
    assert points_after == points_before + 1
    assert alice_after > alice_before
    readout = page.locator('.rating[data-kind-key="go-9"] .graph-readout')
    expect(readout).to_contain_text(f"{alice_after} ±")
    expect(readout.get_by_role("link", name=f"game {last}")).to_have_attribute("href", f"/games/{last}")
    recent = page.locator(f'#recent-games li[data-game="{last}"]')
    expect(recent.locator(".tag.outcome")).to_have_text("won")
    expect(recent.locator(".result-line")).to_have_text("White wins by resignation")  # as the archive says it
    bob.page.reload()
    bob_after, bob_points = go9(bob.page)
    assert bob_after < bob_before and bob_points == SETTLING_GAMES + 1
    bob_recent = bob.page.locator(f'#recent-games li[data-game="{last}"]')
    expect(bob_recent.locator(".tag.outcome")).to_have_text("lost")
    expect(bob_recent.locator(".result-line")).to_have_text("White wins by resignation")
    expect(bob_recent).to_contain_text(f"Go · 9×9 · rated · {len(OPENING) + 1} moves")

    # Hovering (or focusing) another point shows that game's value; the point links to the game.
    first_point = page.locator('.rating[data-kind-key="go-9"] .rating-graph .point').first
    first_game = first_point.get_attribute("data-game")
    first_point.focus()
    expect(readout).to_contain_text(f"after game {first_game},")
    second_point = page.locator('.rating[data-kind-key="go-9"] .rating-graph .point').nth(1)
    second_point.hover()
    expect(readout).to_contain_text(f"after game {second_point.get_attribute('data-game')},")
    first_point.click()
    expect(page).to_have_url(re.compile(rf"/games/{first_game}$"))
    expect(page.locator(".board")).to_be_visible()
    # The game page says the game was rated, and by how much each rating moved.
    expect(page.locator("#rating-note")).to_have_text(
        re.compile(rf"^Rated, Go 9×9: {bob.name} 1500 → \d+ \(−\d+\), {alice.name} 1500 → \d+ \(\+\d+\)\.$")
    )
    # ... and the game page's player names lead back to the profiles.
    page.locator(".members a", has_text=bob.name).click()
    expect(page).to_have_url(re.compile(rf"/users/{bob.name}$"))
    expect(page.locator("#profile-name")).to_have_text(bob.name)

    # The leaderboard of Go 9×9: alice above bob, both settled.
    nav(page, "#nav-leaderboards")
    page.locator(".kind-chooser").get_by_role("link", name="Go 9×9").click()
    expect(page).to_have_url(re.compile(r"/leaderboards/go-9$"))
    rows = page.locator("#leaderboard tbody tr")
    expect(rows.filter(has_text=bob.name)).to_have_count(1)
    names = rows.locator("th").all_inner_texts()
    assert names.index(alice.name) < names.index(bob.name), names
    alice_row = rows.filter(has_text=alice.name)
    expect(alice_row.locator("td").nth(1)).to_have_text(re.compile(rf"^{alice_after}\b"))
    expect(alice_row.locator(".provisional")).to_have_count(0)
    assert_fits_width(page)

    # From bob's profile alice challenges him: the form is prefilled with the suggestion, the game is rated.
    expect(alice_row.get_by_role("link", name=alice.name)).to_have_attribute("href", f"/users/{alice.name}")
    rows.filter(has_text=bob.name).get_by_role("link", name=bob.name).click()
    advice = page.locator("#handicap-advice")
    page.select_option("#handicap-size", "19")  # no 19×19 ratings yet: even
    expect(advice).to_have_text("An even game: colours at random, the rules’ komi.")
    expect(page.locator("#challenge-button")).to_have_attribute("href", re.compile(r"size=19"))
    page.select_option("#handicap-size", "9")
    expect(advice).to_have_text(f"{bob.name} takes Black with no komi (0.5 to White).")
    assert_fits_width(page)
    page.click("#challenge-button")
    expect(page.locator("#challenge")).to_have_value(bob.name)
    expect(page.locator("#size")).to_have_value("9")
    expect(page.locator("#rated")).to_be_checked()
    expect(page.locator("#handicap")).to_have_value("0")
    expect(page.locator("#komi")).to_have_value("0.5")
    expect(page.locator("#team")).to_have_value("2")  # alice White
    page.click("#create-submit")
    expect(page.locator(".board")).to_be_visible()
    gid = int(re.findall(r"/games/(\d+)", page.url)[0])
    created = alice.call("GET", f"/games/{gid}")
    assert created["options"]["rated"] is True and created["challenge_to_name"] == bob.name
    assert created["rules"]["komi"] == [0, 0.5] and created["players"][0]["team"] == 2, created["rules"]
    for user in (alice, bob):
        user.close()


def test_badges_and_pages_that_are_not_there(browser: Browser, server: str) -> None:
    """The computer's page has its badge and no challenge; a member's own page has no challenge either;
    unknown, malformed or hostile names answer a page that says so."""
    member = signed_up(browser, server, "badgewatcher")
    page = member.page
    gid = member.call("POST", "/practice", {"size": 9, "colour": "black", "level": 1})["id"]
    computer = next(p for p in member.call("GET", f"/games/{gid}")["players"] if p["computer"] is not None)
    page.goto(f"/users/{computer['username']}")
    expect(page.locator(".profile-head .tag.computer")).to_have_text("computer")
    expect(page.locator(f'#current-games li[data-game="{gid}"]')).to_contain_text(member.name)
    expect(page.locator("#challenge-button")).to_have_count(0)
    page.goto(f"/users/{member.name}")
    expect(page.locator("#profile-name")).to_have_text(member.name)
    expect(page.locator(".profile-head .tag")).to_have_count(0)
    expect(page.locator("#challenge-button")).to_have_count(0)
    expect(page.locator("#ratings")).to_contain_text("No rated games yet.")

    for path in ("/users/nobodyatall", "/users/%00", "/users/%E0%A4", "/users/" + "x" * 300):
        page.goto(path)
        expect(page.locator("h1")).to_have_text("No such player")
    for key in ("chess", "%00", "go-9" * 50):
        page.goto(f"/leaderboards/{key}")
        expect(page.locator("#leaderboard-body")).to_contain_text("There is no leaderboard")
    # Opens on the chooser's first board that anyone holds a rating of (which one depends on what other
    # tests rated on this shared server), on Go 19×19 while nobody is rated.
    page.goto("/leaderboards")
    expect(page.locator("h1")).to_contain_text("Leaderboard: ")
    held = {k["kind_key"] for k in member.call("GET", "/leaderboards")["kind_keys"] if k["players"] > 0}
    keys = [str(a.get_attribute("href")).rsplit("/", 1)[1] for a in page.locator(".kind-chooser a").all()]
    first = next((key for key in keys if key in held), "go-19")
    chosen = page.locator(f'.kind-chooser a[href="/leaderboards/{first}"]')
    expect(chosen).to_have_attribute("aria-current", "page")
    member.close()


@pytest.mark.parametrize("viewport", VIEWPORTS)
def test_a_hostile_challenge_link_prefills_nothing_wrong(
    browser: Browser, server: str, viewport: ViewportSize
) -> None:
    """The create form's address is anyone's to edit: values its fields could not hold leave the defaults."""
    member = signed_up(browser, server, f"linkeditor{'' if viewport is DESKTOP else 'p'}", viewport)
    page = member.page
    defaults = {"#komi": "", "#size": "9", "#handicap": "0", "#team": "", "#challenge": ""}
    for query in (
        "komi=NaN&size=999&handicap=-1&team=9&challenge=%00",
        "komi=1e999&size=1e9&handicap=2.5&team=%00&challenge=bob%0Aby",
        "komi=6.5,Infinity&size=-9&handicap=NaN&team=-1&challenge=%ED%A0%80",
    ):
        page.goto(f"/new?{query}")
        for field, value in defaults.items():
            expect(page.locator(field)).to_have_value(value)
    page.goto("/new?komi=0,%200.5&size=13&handicap=2&team=1&challenge=zo%C3%AB")  # values it can hold
    held = {"#komi": "0, 0.5", "#size": "13", "#handicap": "2", "#team": "1", "#challenge": "zoë"}
    for field, value in held.items():
        expect(page.locator(field)).to_have_value(value)
    member.close()


@pytest.mark.parametrize("viewport", VIEWPORTS)
def test_people_challenge_a_bot_from_its_profile_and_its_badge_follows_it(
    browser: Browser, server: str, viewport: ViewportSize
) -> None:
    """A member's bot account (POST /me/bot) has its badge on its page, on the game page and in the lists;
    a person challenges it from its page, unrated (the server keeps bots out of people's ratings here)."""
    t = "d" if viewport is DESKTOP else "p"
    person, bot = (signed_up(browser, server, f"{name}{t}", viewport) for name in ("botfan", "robo"))
    bot.call("POST", "/me/bot", {"confirm": "irreversible"})
    page = person.page
    page.goto(f"/users/{bot.name}")
    expect(page.locator(".profile-head .tag.bot")).to_have_text("bot")
    expect(page.locator("#handicap-advice")).to_have_text("An even game: colours at random, the rules’ komi.")
    assert_fits_width(page)
    page.click("#challenge-button")
    expect(page.locator("#challenge")).to_have_value(bot.name)
    expect(page.locator("#rated")).not_to_be_checked()
    page.click("#create-submit")
    expect(page.locator(".board")).to_be_visible()
    gid = int(re.findall(r"/games/(\d+)", page.url)[0])
    bot.call("POST", f"/games/{gid}/join", {})  # the bot accepts
    expect(page.locator(".members li", has_text=bot.name).locator(".tag.bot")).to_have_text("bot")
    expect(page.locator(".members li", has_text=person.name).locator(".tag.bot")).to_have_count(0)
    for user in (person, bot):  # (an accepted challenge may need no confirming)
        if user.call("GET", f"/games/{gid}")["status"] == "confirming":
            user.call("POST", f"/games/{gid}/confirm")
    expect(page.locator("#turn")).to_be_visible()
    snap = person.call("GET", f"/games/{gid}")  # colours at random: whoever is on move resigns
    on_move = next(p["username"] for p in snap["players"] if p["team"] == snap["to_move"]["team"])
    resigner = person if on_move == person.name else bot
    resigner.call("POST", f"/games/{gid}/resign")
    page.goto(f"/users/{person.name}")
    expect(page.locator(f'#recent-games li[data-game="{gid}"] .tag.bot')).to_have_text("bot")
    page.goto(f"/archive?player={person.name}")
    expect(page.locator(f'#archive-games > li[data-game="{gid}"] .tag.bot')).to_have_text("bot")
    for user in (person, bot):
        user.close()
