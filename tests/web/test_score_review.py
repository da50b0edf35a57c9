"""A wrongly scored game, from the player's report to the administrator's correction, in real browsers.

A 9x9 Chinese-rules game ends by passes with Black's E5 and White's lone A1; the estimator judges the dead
stones automatically. The player sees the verdict (dead stones crossed out and said so), reports the score
from the result page; a non-administrator is refused the review pages; the administrator (granted the role
with `miai admin grant`) finds the report at /admin, flips A1's life on the review board, submits, and the
player's page shows the recomputed result with the correction.
"""

from __future__ import annotations

from pathlib import Path

from playwright.sync_api import Browser, expect

from tests.web.support import ADMIN, ApiPlayer, grant_admin, start_game
from tests.web.ui import open_browser, point, register_in_ui, signed_up


def test_flag_and_correct_dead_stones(browser: Browser, server: str, artifacts: Path) -> None:
    player = signed_up(browser, server, "flagger")
    opponent = ApiPlayer.register(server, "flagged")
    gid = start_game([player, opponent], {"size": 9, "preset": "chinese", "komi": [0.5]})
    for mover, move in ((player, "E5"), (opponent, "A1"), (player, "pass"), (opponent, "pass")):
        mover.call("POST", f"/games/{gid}/moves", {"move": move})
    verdict = opponent.game(gid)["result"]
    assert verdict["reason"] == "passes"
    a1_was_dead = verdict["dead"] == ["A1"]
    assert verdict["dead"] in ([], ["A1"])

    # The result page: the automatic verdict, crossed out on the board and named in the score breakdown.
    page = player.page
    page.goto(f"/games/{gid}")
    note = page.locator(".dead-note")
    expect(note).to_contain_text("judged automatically by the estimator")
    a1 = point(page, "A1")
    if a1_was_dead:
        expect(note).to_contain_text("A1 (crossed out on the board)")
        expect(a1).to_have_attribute(
            "aria-label", "A1: team 2 stone (white, circle), dead, territory of team 1"
        )
        expect(page.locator(".board .dead-mark")).to_have_count(1)
    else:
        expect(note).to_contain_text(": none.")
        expect(page.locator(".board .dead-mark")).to_have_count(0)
    page.locator(".board").screenshot(path=str(artifacts / "result-dead-stones.png"))
    page.click("text=Report a wrong score")
    page.fill("#flag-comment", "A1 was judged wrongly")
    page.click("text=Send report")
    expect(page.locator("#toast")).to_contain_text("an administrator will look at the score")
    expect(page.locator("#nav-admin")).to_have_count(0)
    page.goto("/admin")  # not an administrator
    expect(page.locator("#admin-refused")).to_contain_text("Administrators only")
    page.goto(f"/admin/games/{gid}")
    expect(page.locator("#admin-refused")).to_contain_text("Administrators only")
    page.goto(f"/games/{gid}")
    expect(page.locator("#result-headline")).to_be_visible()

    # The administrator's list of reports and the review of this game.
    admin = open_browser(browser, server, ADMIN)
    register_in_ui(admin)
    grant_admin(server, ADMIN)  # the operator's command, on the running server's database
    review = admin.page
    review.reload()
    review.click("#nav-admin")
    row = review.locator(f'.flag-row[data-game="{gid}"]')
    expect(row).to_contain_text("A1 was judged wrongly")
    expect(row).to_contain_text("flagged by flagger")
    row.locator("text=Review the dead stones").click()
    expect(review.locator("#review-dead")).to_contain_text("(the recorded verdict)")
    expect(review.locator(".flag-history")).to_contain_text("A1 was judged wrongly")
    expect(review.locator("#correction-history")).to_contain_text("has not been corrected")
    point(review, "A1").click()  # flip A1's life
    if a1_was_dead:
        expect(review.locator("#review-dead")).to_have_text(
            "Dead stones: none (changed; the score is recomputed when you submit)"
        )
    else:
        expect(review.locator("#review-dead")).to_have_text(
            "Dead stones: A1 (changed; the score is recomputed when you submit)"
        )
        expect(point(review, "A1")).to_have_attribute("aria-label", "A1: team 2 stone (white, circle), dead")
    review.fill("#correction-note", "checked by hand")
    review.locator(".board").screenshot(path=str(artifacts / "score-review.png"))
    review.click("#submit-correction")
    expect(review.locator("#correction-history")).to_contain_text("replaced the result")
    expect(review.locator("#correction-history")).to_contain_text(f"Now: set by {ADMIN}")
    expect(review.locator(".flag-history")).to_contain_text(f"Resolved by {ADMIN}")
    expect(review.locator("#review-dead")).to_contain_text("(the recorded verdict)")

    # The player's page updates live: the recomputed result and who corrected it.
    # A1 alive: Black 1 stone, White 1 stone + 0.5 komi (the rest is neutral). A1 dead: Black owns the board.
    winner, totals = (
        ("White wins by 0.5 points", ("1", "1.5"))
        if a1_was_dead
        else ("Black wins by 80.5 points", ("81", "0.5"))
    )
    expect(page.locator("#result-headline")).to_contain_text(winner)
    expect(page.locator('.scores tr[data-team="1"] td.total')).to_have_text(totals[0])
    expect(page.locator('.scores tr[data-team="2"] td.total')).to_have_text(totals[1])
    expect(page.locator(".result")).to_contain_text(f"Corrected by {ADMIN}: checked by hand")
    expect(note).to_contain_text(f"Dead stones set by an administrator ({ADMIN})")
    expect(page.locator(".board .dead-mark")).to_have_count(0 if a1_was_dead else 1)

    review.click("#nav-admin")
    expect(review.locator("#no-flags")).to_have_text("No open reports.")
    player.check_no_errors()
    admin.check_no_errors()
    player.context.close()
    admin.context.close()
