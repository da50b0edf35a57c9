"""The result sentence (static/js/format.js `endingText`) for the endings the journeys do not reach: draws,
the move limit, agreed draws, a teammate who resigned while the team played on, results stored before
`reason` said `resign` or `timeout`, and other games' resignations."""

from __future__ import annotations

from typing import Any

import pytest
from playwright.sync_api import Browser

NAMES = ["Black", "White", "Red", "Blue"]
TEXT = """
async ([results, names]) => {
  const { endingText } = await import('/static/js/format.js');
  return results.map((r) => endingText(r, (t) => names[t - 1]));
}
"""


def scores(*totals: float) -> list[dict[str, Any]]:
    return [{"team": t, "total": total} for t, total in enumerate(totals, start=1)]


def left(team: int, how: str, ply: int, team_out: bool = True) -> dict[str, Any]:
    return {"team": team, "seat": 0, "how": how, "ply": ply, "team_out": team_out}


CASES = [
    (
        {"reason": "passes", "winners": [1], "draw": False, "margin": 1, "scores": scores(8, 7), "left": []},
        "Black wins by 1 point.",
    ),
    (
        {
            "reason": "passes",
            "winners": [1, 2],
            "draw": True,
            "margin": 0,
            "scores": scores(40, 40),
            "left": [],
        },
        "Draw between Black and White, 40 points each.",
    ),
    (
        {"reason": "move_limit", "winners": [2], "draw": False, "margin": 3.5, "scores": scores(1, 4.5)},
        "White wins by 3.5 points when the move limit was reached.",
    ),
    (
        {
            "reason": "passes",
            "winners": [4],
            "draw": False,
            "margin": 3.5,
            "scores": scores(10, 6.5, 0, 10),
            "left": [left(3, "timeout", 57)],
        },
        "Red timed out at move 57; Blue wins by 3.5 points.",
    ),
    (
        {
            "reason": "agreed_draw",
            "winners": [1, 2, 4],
            "draw": True,
            "scores": [],
            "left": [left(3, "resign", 12)],
        },
        "Red resigned at move 12; Black, White and Blue agreed to a draw.",
    ),
    (
        {
            "reason": "timeout",
            "winners": [2],
            "draw": False,
            "scores": [],
            "left": [left(1, "resign", 9, team_out=False), left(1, "timeout", 10)],
        },
        "Black timed out at move 10; White wins on time.",  # the teammate who resigned first is not named
    ),
    (
        {"reason": "last_colour", "winners": [2], "draw": False, "scores": []},
        "White wins — only one team was left in the game.",
    ),
    (
        {"reason": "resign", "winners": [2], "draw": False, "left": [left(1, "resign", 7)]},
        "Black resigned at move 7; White wins by resignation.",
    ),
]


@pytest.mark.parametrize(("result", "text"), CASES)
def test_ending_text(browser: Browser, server: str, result: dict[str, Any], text: str) -> None:
    context = browser.new_context(base_url=server)
    try:
        page = context.new_page()
        page.goto("/api/v1/health")
        assert page.evaluate(TEXT, [[result], NAMES]) == [text]
    finally:
        context.close()
