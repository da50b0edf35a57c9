"""Amazons in the browser: every move in three clicks (queen, destination, arrow) with the legal targets of
each step highlighted, between two people (a 10-move game that leaves White without a move), and against the
computer (the human walls their own queens in, so the game ends soon; the core replays the record)."""

from __future__ import annotations

from pathlib import Path

import pytest
from playwright.sync_api import Browser, Page, ViewportSize, expect

from miai.core import amazons
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

# Found by a search for a short game: after these ten moves White, to move, has no queen that can move.
SCRIPT = [
    "d1-f1/f2", "g10-g2/i4", "a4-a1/e1", "j7-e2/a2", "j4-j10/i10",
    "a7-b8/h2", "j10-j1/h1", "b8-b1/b2", "j1-j10/i9", "d10-d3/j9",
]  # fmt: skip


def clicks(move: str) -> list[str]:
    frm, rest = move.split("-")
    to, arrow = rest.split("/")
    return [frm, to, arrow]


def targets(page: Page) -> set[str]:
    found = page.eval_on_selector_all(
        ".hit.target", "cells => cells.map((c) => c.getAttribute('aria-label'))"
    )
    return {str(text).split(":")[0] for text in found}


@pytest.mark.parametrize("viewport", VIEWPORTS)
def test_amazons_two_players_in_three_clicks(
    browser: Browser, server: str, artifacts: Path, viewport: ViewportSize
) -> None:
    alice = games_ui.sign_up(browser, server, f"aliceamz{tag(viewport)}", viewport)
    bob = games_ui.sign_up(browser, server, f"bobamz{tag(viewport)}", viewport, one_click=True)
    gid = games_ui.create_game(alice.page, "amazons", 1)
    join_and_start(alice, bob, gid, 2)
    page = alice.page
    games_ui.wait_my_turn(page)
    expect(page.locator("#turn")).to_contain_text("Your turn (White)")
    expect(page.locator("#pass")).to_be_hidden()
    expect_point(page, "d1", "White queen, can move")
    assert targets(page) == {"a4", "d1", "g1", "j4"}
    page.evaluate("window.scrollTo(0, 0)")
    assert_in_viewport(page, page.locator(".board"), page.locator("#submit-move"), page.locator("#resign"))

    # Select d1, click it again to cancel; select it again, pick d5, then Escape cancels the whole move.
    point(page, "d1").click()
    expect(page.locator("#hint")).to_contain_text("d1 selected")
    start = amazons.new_game()
    reach = {amazons.format_square(m.to) for m in start.legal_moves() if amazons.format_square(m.frm) == "d1"}
    assert targets(page) == reach
    point(page, "d1").click()
    expect(page.locator("#hint")).to_have_text("Move cancelled.")
    point(page, "d1").click()
    point(page, "e3").click()  # not on a queen's line from d1
    expect(page.locator("#hint")).to_contain_text("cannot reach")
    point(page, "d5").click()
    expect(page.locator(".target-dot.arrow")).not_to_have_count(0)
    expect_point(page, "d1", "White queen, selected queen, legal arrow target")  # the square it leaves
    expect_point(page, "d5", "empty, chosen destination")
    page.keyboard.press("Escape")
    expect(page.locator("#hint")).to_have_text("Move cancelled.")
    assert targets(page) == {"a4", "d1", "g1", "j4"}

    # The first move: three clicks make a preview (queen moved, arrow drawn), Submit Move plays it.
    for square in clicks(SCRIPT[0]):
        point(page, square).click()
    expect(page.locator("#submit-move")).to_have_text(f"Submit Move {SCRIPT[0]}")
    expect(page.locator(".board .preview")).to_have_count(2)
    page.click("#submit-move")
    expect(counter(page)).to_contain_text(f"Move 1 of 1 · White: {SCRIPT[0]}")
    expect_point(bob.page, "f2", "arrow, last arrow")
    expect_point(bob.page, "f1", "White queen, last move to here")
    expect_point(bob.page, "d1", "empty, last move from here")

    for ply, move in enumerate(SCRIPT[1:], start=2):
        user, one_click = (alice, False) if ply % 2 == 1 else (bob, True)
        games_ui.enter(user.page, clicks(move), ply, one_click)

    for user in (alice, bob):
        expect(games_ui.headline(user.page)).to_have_text("Black wins: White cannot move.")
        expect(user.page.locator("#move-list li")).to_have_count(len(SCRIPT))
        expect(user.page.locator(".board .arrow")).to_have_count(len(SCRIPT))
    expect(page.locator("#move-list li").first).to_have_text(f"White {SCRIPT[0]}")
    board_shot(page, artifacts / f"amazons-finished{tag(viewport)}.png")
    final = games_ui.snapshot(alice, gid)
    assert final["result"]["winners"] == [2] and final["result"]["reason"] == "noMoves"
    for user in (alice, bob):
        user.close()


def state_of(position: dict[str, object]) -> amazons.AmazonsState:
    cells = list(position["cells"])  # type: ignore[call-overload]
    return amazons.new_game(
        10,
        white=[p for p, c in enumerate(cells) if c == 1],
        black=[p for p, c in enumerate(cells) if c == 2],
        arrows=[p for p, c in enumerate(cells) if c == -1],
        to_move=amazons.WHITE,
    )


def mobility(state: amazons.AmazonsState, player: int) -> int:
    """Empty squares next to the player's queens (0: the player cannot move)."""
    n = state.size
    free = 0
    for q in state.queens(player):
        r, c = divmod(q, n)
        for dr in (-1, 0, 1):
            for dc in (-1, 0, 1):
                rr, cc = r + dr, c + dc
                if (dr or dc) and 0 <= rr < n and 0 <= cc < n and state.cells[rr * n + cc] == amazons.EMPTY:
                    free += 1
    return free


def test_amazons_against_the_computer(browser: Browser, server: str, artifacts: Path) -> None:
    user = games_ui.sign_up(browser, server, "soloamz", one_click=True)
    page = user.page
    gid = games_ui.practice(page, "amazons", "first", level=1)
    for _ in range(46):  # White makes at most 46 of the 92 moves a game can have
        expect(page.locator("#turn.mine, #result-headline").first).to_be_visible(timeout=60_000)
        if games_ui.headline(page).is_visible():
            break
        snap = games_ui.snapshot(user, gid)
        state = state_of(snap["position"])
        move = min(state.legal_moves(), key=lambda m: (mobility(state.play(m), amazons.WHITE), m))
        text = amazons.format_move(move)
        assert text in snap["position"]["legal"]
        for square in clicks(text):
            point(page, square).click()
        expect(page.locator("#move-list li").nth(len(snap["moves"]))).to_have_text(f"White {text}")

    record = games_ui.snapshot(user, gid)
    state = amazons.new_game()
    for m in record["moves"]:
        state = state.play(amazons.parse_move(m["move"]))
    assert state.is_over and state.reason == "noMoves"
    winner, loser = amazons.PLAYER_NAMES[state.winner], amazons.PLAYER_NAMES[1 - state.winner]  # type: ignore[operator]
    expect(games_ui.headline(page)).to_have_text(f"{winner} wins: {loser} cannot move.")
    board_shot(page, artifacts / "amazons-vs-computer.png")
    user.close()
