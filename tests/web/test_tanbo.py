"""Tanbo in the browser: a whole game between two people that ends when White's last stone is removed, and a
game against the computer (19×19 games are long: the human resigns after a few moves).

Tanbo has no pass and no shortcut: a colour loses only when its last root is removed (SPEC §4.4), so the
two-player game replays a 235-move record found by a beam search for a short elimination. Black clicks its
first moves, the move that removes a White root and the last move in the browser; the other moves go
through the API from each player's own browser session, and Black's page follows them over its websocket
(White's page is opened again at the end).
"""

from __future__ import annotations

from pathlib import Path

import pytest
from playwright.sync_api import Browser, ViewportSize, expect

from miai.core import tanbo
from tests.web import games_ui
from tests.web.ui import (
    VIEWPORTS,
    assert_in_viewport,
    board_shot,
    counter,
    expect_point,
    join_and_start,
    point,
    tag,
)

RECORD = [
    "A8", "T18", "N18", "S19", "F13", "A2", "N17", "B1", "B7", "A14", "B19", "B13", "M18", "A12",
    "T12", "T6", "G2", "S6", "A9", "T5", "H13", "A11", "A10", "F19", "B18", "G18", "B10", "H19",
    "B11", "R19", "J13", "O1", "J12", "N2", "C10", "M1", "S1", "R18", "C9", "Q19", "C18", "P19",
    "O19", "T17", "N8", "S17", "T14", "T16", "T15", "P18", "O17", "O18", "P17", "T4", "S12", "S4",
    "B17", "T3", "T2", "A15", "B16", "A16", "B15", "A17", "T11", "A18", "N9", "A3", "B12", "B3",
    "Q17", "A4", "T10", "C1", "C16", "C2", "P16", "D1", "R1", "A5", "A6", "T8", "T9", "P1",
    "Q1", "E1", "F2", "F1", "C12", "E2", "C13", "B5", "Q2", "B6", "P2", "C5", "S14", "C4",
    "P19", "D4", "K12", "E3", "F3", "S8", "S9", "E19", "O8", "E18", "D18", "D19", "L12", "C19",
    "D17", "J19", "E17", "K19", "M12", "J18", "M13", "L19", "L18", "M19", "N12", "L1", "R17", "K1",
    "K18", "L2", "N16", "J1", "H1", "J2", "M11", "H2", "G14", "J3", "D9", "K3", "G15", "J4",
    "G12", "H4", "R9", "H5", "R8", "H6", "F17", "G5", "G17", "J6", "C14", "J7", "M7", "K7",
    "L7", "J8", "H17", "H8", "J17", "J9", "M9", "K9", "L9", "K10", "L10", "K11", "J11", "L11",
    "R7", "R6", "O2", "R5", "O3", "Q5", "N3", "Q4", "Q3", "P4", "O4", "P3", "Q19", "F5",
    "F4", "F6", "R19", "E6", "C7", "F7", "R16", "G8", "N15", "N14", "M14", "O14", "O15", "G9",
    "Q9", "F9", "E9", "G10", "G11", "H10", "F16", "H11", "Q10", "H12", "C6", "D6", "C5", "D7",
    "D5", "D8", "E8", "C8", "D13", "B8", "J10", "B9", "F5", "P14", "P4", "P15", "B5", "Q15",
    "R15", "Q16", "E10", "P13", "L17", "Q13", "A15", "Q12", "Q11", "R12", "R11",
]  # fmt: skip
REMOVES_A_ROOT = 53  # Black's P17
# Black's plies played by a click (one-click play); between them at most 60 moves arrive over the websocket
CLICKED = {3, 5, 7, REMOVES_A_ROOT, 101, 151, 201, len(RECORD)}


@pytest.mark.parametrize("viewport", VIEWPORTS)
def test_tanbo_two_players_until_white_is_eliminated(
    browser: Browser, server: str, artifacts: Path, viewport: ViewportSize
) -> None:
    alice = games_ui.sign_up(browser, server, f"alicetanbo{tag(viewport)}", viewport)
    bob = games_ui.sign_up(browser, server, f"bobtanbo{tag(viewport)}", viewport)
    gid = games_ui.create_game(alice.page, "tanbo", 1)
    join_and_start(alice, bob, gid, 2)
    page = alice.page
    expect(page.locator("#turn")).to_contain_text("Your turn (Black)")
    expect(page.locator("#pass")).to_be_hidden()
    expect(page.locator(".board .legal-dot")).to_have_count(24)
    expect_point(page, "A18", "empty, legal for Black")
    page.evaluate("window.scrollTo(0, 0)")
    assert_in_viewport(page, page.locator(".board"), page.locator("#submit-move"), page.locator("#resign"))
    point(page, "K10").click()
    expect(page.locator("#hint")).to_contain_text(
        "K10: illegal, a stone must touch exactly one stone of your colour"
    )

    # Black's page follows the game live; White's is closed meanwhile and opened again at the end (a page
    # drawing every move of the burst doubled the browser's work).
    bob.page.goto("about:blank")

    # The first move with a preview and Submit Move; then one-click play (the page reads it on reload).
    games_ui.enter(page, [RECORD[0]], 1)
    alice.call("PATCH", "/me/settings", {"one_click": True})
    page.reload()
    state = tanbo.new_game().play(tanbo.parse_move(RECORD[0]))
    for ply, move in enumerate(RECORD[1:], start=2):
        if ply in CLICKED:
            # The page has followed the moves sent through the API (a burst of them: it may take a while)
            expect(counter(page)).to_contain_text(f"Move {ply - 1} of {ply - 1}", timeout=60_000)
            games_ui.enter(page, [move], ply, one_click=True)
        else:
            (alice if ply % 2 else bob).call("POST", f"/games/{gid}/moves", {"move": move})
        state = state.play(tanbo.parse_move(move))
        if ply == REMOVES_A_ROOT:  # the page shows the emptied points
            gone = [tanbo.format_move(tanbo.Place(p)) for p in state.removed]
            for name in gone:
                expect_point(page, name, "empty, removed by the last move")
            expect(page.locator('.board .removed[data-team="2"]')).to_have_count(len(gone))
            board_shot(page, artifacts / f"tanbo-removed-root{tag(viewport)}.png")

    assert state.is_over and state.winner == tanbo.BLACK
    bob.page.goto(f"/games/{gid}")
    for user in (alice, bob):
        expect(games_ui.headline(user.page)).to_have_text("Black wins: White has no stones left.")
        expect(counter(user.page)).to_contain_text(
            f"Move {len(RECORD)} of {len(RECORD)} · Black: {RECORD[-1]}"
        )
    expect(page.locator(".board .stone[data-team='2']")).to_have_count(0)
    expect(page.locator(".board .root-line[data-team='1']")).to_have_count(1)
    final = games_ui.snapshot(alice, gid)
    assert final["result"]["winners"] == [1] and final["result"]["reason"] == "eliminated"
    board_shot(page, artifacts / f"tanbo-finished{tag(viewport)}.png")
    for user in (alice, bob):
        user.close()


def test_tanbo_against_the_computer_until_resignation(browser: Browser, server: str) -> None:
    user = games_ui.sign_up(browser, server, "solotanbo", one_click=True)
    page = user.page
    gid = games_ui.practice(page, "tanbo", "first", level=1)
    expect(page.locator("#practice-start")).to_be_visible()
    for ply in (1, 3, 5):
        games_ui.wait_my_turn(page)
        move = games_ui.snapshot(user, gid)["position"]["legal"][0]
        point(page, move).click()
        expect(counter(page)).to_contain_text(f"Move {ply + 1} of {ply + 1} · White: ", timeout=60_000)
        expect(page.locator("#move-list li")).to_have_count(ply + 1)
    page.click("#resign")
    page.click("#confirm-ok")
    expect(games_ui.headline(page)).to_have_text("Black resigned at move 7; White wins by resignation.")
    final = games_ui.snapshot(user, gid)
    assert final["result"]["winners"] == [2] and final["result"]["reason"] == "resign"
    user.close()
