"""The board's hover hints (static/js/rules.js) agree with the rules core on random positions.

For every point of every sampled position the browser's `analyzePlay` must give the same verdict as the core's
`analyze`: legal, or illegal for the same reason (occupied, suicide, ko, superko), under simple ko, positional
and situational superko, with suicide forbidden and allowed, for two and three colours.
"""

from __future__ import annotations

import random
from typing import Any

from playwright.sync_api import Browser

from miai.core.go import PASS, KoRule, Place, Rules, Suicide, new_game

CONFIGS = [
    (KoRule.SIMPLE, Suicide.FORBIDDEN, 2),
    (KoRule.POSITIONAL, Suicide.FORBIDDEN, 3),
    (KoRule.SITUATIONAL, Suicide.ALLOWED, 2),
    (KoRule.POSITIONAL, Suicide.ALLOWED, 3),
]
SIZE = 5
GAMES_PER_CONFIG = 6
PLIES = 70


def teams(board: list[int | None]) -> list[int]:
    return [0 if c is None else c + 1 for c in board]


def cases_for(ko: KoRule, suicide: Suicide, colours: int, rng: random.Random) -> list[dict[str, Any]]:
    out = []
    for _ in range(GAMES_PER_CONFIG):
        state = new_game(SIZE, Rules(ko=ko, suicide=suicide, komi=(0.0,) * colours), colours=colours)
        history = [{"board": teams(state.board()), "mover": (state.to_move - 1) % colours + 1}]
        for ply in range(PLIES):
            if state.ended is not None:
                break
            if ply % 3 == 0:
                expected = []
                for p in range(SIZE * SIZE):
                    a = state.analyze(Place(p))
                    expected.append(None if a.legal else a.reason.value)  # type: ignore[union-attr]
                out.append(
                    {
                        "board": history[-1]["board"],
                        "team": state.to_move + 1,
                        "history": list(history),
                        "rules": {"ko": ko.value, "suicide": suicide.value},
                        "expected": expected,
                    }
                )
            legal = state.legal_points()
            before = state
            state = state.play(Place(rng.choice(legal)) if legal and rng.random() > 0.05 else PASS)
            new = []
            for s in state.lineage():  # the move and any automatic passes after it (SPEC G6)
                if s is before:
                    break
                new.append(s)
            history.extend({"board": teams(s.board()), "mover": s.last_colour + 1} for s in reversed(new))
    return out


COMPARE = """
async ({ size, cases }) => {
  const { analyzePlay } = await import('/static/js/rules.js');
  const wrong = [];
  cases.forEach((c, i) => {
    for (let p = 0; p < size * size; p++) {
      const a = analyzePlay(c.board, size, p, c.team, c.rules, c.history);
      const got = a.legal ? null : a.reason;
      if (got !== c.expected[p]) wrong.push({ case: i, p, got, expected: c.expected[p], rules: c.rules });
    }
  });
  return { checked: cases.length * size * size, wrong: wrong.slice(0, 10), count: wrong.length };
}
"""


def test_hover_legality_matches_the_core(browser: Browser, server: str) -> None:
    rng = random.Random(20261122)
    cases = [case for config in CONFIGS for case in cases_for(*config, rng)]
    reasons = {r for case in cases for r in case["expected"] if r}
    assert {"occupied", "suicide", "ko", "superko"} <= reasons, f"the random games only produced {reasons}"
    context = browser.new_context(base_url=server)
    try:
        page = context.new_page()
        page.goto("/api/v1/health")
        result = page.evaluate(COMPARE, {"size": SIZE, "cases": cases})
    finally:
        context.close()
    count, checked = result["count"], result["checked"]
    assert count == 0, f"{count} of {checked} verdicts differ: {result['wrong']}"
