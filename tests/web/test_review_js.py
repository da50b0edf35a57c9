"""A review position's score in words (static/js/review.js `scoreText`): `score` holds each team's expected
points (docs/api.md, Reviews), so with two teams the page says who leads by the difference, with more each
team's points, and nothing for other games."""

from __future__ import annotations

from playwright.sync_api import Browser

NAMES = ["Black", "White", "Red"]
TEXT = """
async ([scores, names]) => {
  const { scoreText } = await import('/static/js/review.js');
  return scores.map((s) => scoreText(s, (t) => names[t - 1]));
}
"""
CASES = [
    ([45.5, 42.0], "Black leads by 3.5"),
    ([30.0, 57.5], "White leads by 27.5"),
    ([40.0, 40.0], "even"),
    ([20.25, 18.0, 11.0], "Black 20.3, White 18.0, Red 11.0 points"),
    ([], ""),  # Amazons, Hex, Tanbo
]


def test_a_positions_score_reads_as_each_teams_points(browser: Browser, server: str) -> None:
    context = browser.new_context(base_url=server)
    try:
        page = context.new_page()
        page.goto("/api/v1/health")
        got = page.evaluate(TEXT, [[score for score, _ in CASES], NAMES])
    finally:
        context.close()
    assert got == [text for _, text in CASES]
