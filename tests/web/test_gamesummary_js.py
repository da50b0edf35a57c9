"""What the home, watch, archive and profile pages say about a listed game (static/js/gamesummary.js): a
counted game's result reads as on the game page ("White wins by 6.5 points"), whichever page lists it; the
other games keep their own endings; the game line is one format everywhere."""

from __future__ import annotations

from typing import Any

from playwright.sync_api import Browser

RESULTS = """
async (cases) => {
  const { resultText } = await import('/static/js/gamesummary.js');
  return cases.map(([result, kind]) => resultText(result, kind, 'classic'));
}
"""
LINES = """
async (games) => {
  const { gameLine } = await import('/static/js/gamesummary.js');
  return games.map(gameLine);
}
"""


def ended(reason: str, winners: list[int], margin: float | None = None, draw: bool = False) -> dict[str, Any]:
    """A result as /games/archive and /users/NAME list it: no scores, no departures."""
    return {"reason": reason, "winners": winners, "draw": draw, "margin": margin}


RESULT_CASES: list[tuple[dict[str, Any], str, str]] = [
    (ended("passes", [2], 6.5), "go", "White wins by 6.5 points"),
    (ended("passes", [1], 1), "go", "Black wins by 1 point"),
    (ended("passes", [1, 2], 0, draw=True), "go", "Draw between Black and White"),
    (ended("passes", [3], 2.5), "go", "Red wins by 2.5 points"),
    (ended("move_limit", [2], 3.5), "go", "White wins by 3.5 points when the move limit was reached"),
    (ended("resign", [1]), "go", "Black wins by resignation"),
    (ended("timeout", [2]), "go", "White wins on time"),
    (ended("passes", []), "go", "Draw"),
    # An uploaded record without RE: no result at all, which is no draw.
    ({"reason": None, "winners": [], "draw": False, "margin": None}, "go", "No result"),
    (ended("connection", [2]), "hex", "White wins: White joined their two edges"),
    (ended("resign", [1]), "hex", "Black wins by resignation"),
    (ended("noMoves", [1]), "amazons", "White wins: Black cannot move"),
    (ended("eliminated", [2]), "tanbo", "White wins: Black has no stones left"),
]

GAMES = [
    ({"kind": "go", "size": 9, "colours": 2, "rated": True, "moves": 12}, "Go · 9×9 · rated · 12 moves"),
    (
        {"kind": "go", "size": 19, "colours": 3, "rated": False, "moves": 1},
        "Go · 19×19 · 3 colours · unrated · 1 move",
    ),
    (
        {"kind": "hex", "size": 11, "colours": 2, "rated": False, "moves": 0},
        "Hex · 11×11 · unrated · 0 moves",
    ),
]


def evaluate(browser: Browser, server: str, script: str, arg: Any) -> Any:
    context = browser.new_context(base_url=server)
    try:
        page = context.new_page()
        page.goto("/api/v1/health")
        return page.evaluate(script, arg)
    finally:
        context.close()


def test_listed_results_read_as_the_game_page_words_them(browser: Browser, server: str) -> None:
    texts = evaluate(browser, server, RESULTS, [[result, kind] for result, kind, _ in RESULT_CASES])
    assert texts == [text for _, _, text in RESULT_CASES]


def test_the_game_line_is_one_format(browser: Browser, server: str) -> None:
    assert evaluate(browser, server, LINES, [g for g, _ in GAMES]) == [line for _, line in GAMES]


SHARED = """
async () => {
  const { plural, dateTimeText } = await import('/static/js/format.js');
  const { kindKeyTitle } = await import('/static/js/kindkeys.js');
  const { challengeUrl } = await import('/static/js/pages/profile.js');
  return {
    plural: [plural(1, 'move'), plural(0, 'free seat'), plural(12, 'rated game')],
    noTime: dateTimeText(null),
    keys: ['go-9', 'hex', 'tanbo-teams', 'go-multi', 'chess'].map(kindKeyTitle),
    challenge: challengeUrl('zoë', null, 'me'),
    rated: challengeUrl('zoë', { size: 9, handicap: 0, komi: 0.5, black: 'me' }, 'me'),
    unrated: challengeUrl('abot', { size: 13, handicap: 0, komi: null, black: null }, 'me', false),
  };
}
"""


def test_the_shared_words_of_the_lists(browser: Browser, server: str) -> None:
    """Counts, rating kinds and the challenge link, as every page words them (format.js, kindkeys.js)."""
    assert evaluate(browser, server, SHARED, None) == {
        "plural": ["1 move", "0 free seats", "12 rated games"],
        "noTime": "",
        "keys": ["Go 9×9", "Hex", "Tanbo, teams", "Go, three or more colours", "chess"],
        "challenge": "/new?challenge=zo%C3%AB",
        "rated": "/new?challenge=zo%C3%AB&size=9&rated=true&handicap=0&komi=0.5&team=1",
        "unrated": "/new?challenge=abot&size=13",  # a bot, where people's rated games with bots are refused
    }
