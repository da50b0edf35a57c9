"""The classic territory game of itsyourturn, at 1280×800 and 390×844: created on the form with a handicap
and a move limit, White moving first after Black's handicap stones, komi 0.5, a capture, the limit ending
the game and counting it by territory (territory less lost and dead stones, plus komi, column by column),
then the player's report of a wrong score and an administrator's correction, shown live on her page.

Alice (Black) plays in the browser; bob (White) is an API client; the administrator has a browser too.
"""

from __future__ import annotations

import re
from typing import Any

import pytest
from playwright.sync_api import Browser, Page, ViewportSize, expect

from tests.web.support import ApiPlayer, grant_admin
from tests.web.ui import (
    DESKTOP,
    VIEWPORTS,
    assert_in_viewport,
    counter,
    new_game,
    play,
    point,
    signed_up,
    wait_moves,
)

# White moves first; Black's A2 captures A1.
WHITE = ["A1", "E5", "J9"]
BLACK = ["B1", "A2", "D6"]


@pytest.mark.parametrize("viewport", VIEWPORTS)
def test_territory_game_with_handicap_move_limit_report_and_correction(
    browser: Browser, server: str, viewport: ViewportSize
) -> None:
    t = "d" if viewport is DESKTOP else "p"
    alice = signed_up(browser, server, f"aliceiyt{t}", viewport)
    bob = ApiPlayer.register(server, f"bobiyt{t}")
    page = alice.page
    fields = {"size": "9", "preset": "itsyourturn", "move-limit": "3", "handicap": "2", "team": "1"}
    gid = new_game(page, fields, shown="#leave")
    rules = page.locator("dl.rules")
    for text in (
        "Rulesitsyourturn",
        "Scoringterritory",
        "Komi1: 0, 2: 0.5",
        "Move limit3 rounds",
        "Handicap2",
    ):
        expect(rules).to_contain_text(text)  # handicap games get komi 0.5 (SPEC G8)
    bob.call("POST", f"/games/{gid}/join", {"team": 2})
    bob.call("POST", f"/games/{gid}/confirm")
    page.click("#confirm")

    # Black's two handicap stones are on the board, and White moves first.
    expect(page.locator("#turn")).to_contain_text(f"bobiyt{t}")
    expect(counter(page)).to_have_text("Move 0 of 0")
    for vertex in ("C3", "G7"):
        expect(point(page, vertex)).to_have_attribute("aria-label", re.compile(rf"^{vertex}: team 1 stone"))
    expect(page.locator(".board .stone")).to_have_count(2)

    for ply, (white, black) in enumerate(zip(WHITE, BLACK, strict=True)):
        bob.play(gid, white)
        wait_moves(page, 2 * ply + 1)
        expect(page.locator("#turn")).to_contain_text("Your turn")
        if ply == 0:
            page.evaluate("window.scrollTo(0, 0)")
            board = page.locator(".board")
            assert_in_viewport(
                page, board, page.locator("#submit-move"), page.locator("#pass"), page.locator("#resign")
            )
        play(page, black, 2 * ply + 2)
    expect(page.locator('.team[data-team="1"] .captures')).to_have_text("captures: 1")

    # Three rounds (six moves) reach the limit: the game is counted by territory, column by column.
    verdict = bob.game(gid)["result"]
    assert verdict["reason"] == "move_limit"
    expect(page.locator("#result-headline")).to_have_text(headline(verdict))
    header = page.locator(".scores thead th")
    expect(header).to_have_text(["Team", "Terr.", "−Lost", "−Dead", "Komi", "Total"])
    expect_scores(page, verdict)
    expect(page.locator('.scores tr[data-team="2"] td.prisoners')).to_have_text("1")  # A1
    expect(page.locator('.scores tr[data-team="2"] td.komi')).to_have_text("0.5")
    expect(page.locator(".dead-note")).to_have_text(
        f"Dead stones were judged automatically by the estimator{listed(verdict['dead'])}."
    )

    # Alice reports the score; an administrator finds the report and turns E5's life around.
    page.click("text=Report a wrong score")
    page.fill("#flag-comment", f"E5 was judged wrongly ({t})")
    page.click("text=Send report")
    expect(page.locator("#toast")).to_contain_text("an administrator will look at the score")
    admin = signed_up(browser, server, f"adminiyt{t}", viewport)
    grant_admin(server, admin.name)
    review = admin.page
    review.goto("/admin")
    row = review.locator(f'.flag-row[data-game="{gid}"]')
    expect(row).to_contain_text(f"E5 was judged wrongly ({t})")
    row.locator("text=Review the dead stones").click()
    expect(review.locator("#review-dead")).to_contain_text("(the recorded verdict)")
    point(review, "E5").click()
    expect(review.locator("#review-dead")).to_contain_text(
        "(changed; the score is recomputed when you submit)"
    )
    review.fill("#correction-note", "checked by hand")
    review.click("#submit-correction")
    expect(review.locator("#correction-history")).to_contain_text(f"Now: set by adminiyt{t}")

    # Alice's page follows live: the new verdict and totals, who corrected them and why.
    expect(page.locator(".result")).to_contain_text(f"Corrected by adminiyt{t}: checked by hand")
    corrected = bob.game(gid)["result"]
    assert set(corrected["dead"]) == set(verdict["dead"]) ^ {"E5"}
    expect(page.locator(".dead-note")).to_have_text(
        f"Dead stones set by an administrator (adminiyt{t}){listed(corrected['dead'])}."
    )
    expect(page.locator("#result-headline")).to_have_text(headline(corrected))
    expect_scores(page, corrected)
    for user in (alice, admin):
        user.close()


def headline(result: dict[str, Any]) -> str:
    winner = {1: "Black", 2: "White"}[result["winners"][0]]
    return f"{winner} wins by {result['margin']:g} points when the move limit was reached."


def listed(dead: list[str]) -> str:
    return f": {' '.join(dead)} (crossed out on the board)" if dead else ": none"


def expect_scores(page: Page, result: dict[str, Any]) -> None:
    """The score table shows the server's numbers, column by column."""
    for score in result["scores"]:
        row = page.locator(f'.scores tr[data-team="{score["team"]}"]')
        for column in ("territory", "prisoners", "dead", "komi", "total"):
            expect(row.locator(f"td.{column}")).to_have_text(f"{score[column]:g}")
