"""The "Area" view's score (static/js/area.js) counts like the server's scoring.

On random positions with some chains taken as dead, the estimate the server would send is built from the
core's final ownership (sure points as sure estimates, neutral points as uncertain ones). From it the
browser's `areaSummary` must find exactly those dead stones and the same totals as the core's `score`,
under area and territory scoring, with and without capture points, for two and three colours.
"""

from __future__ import annotations

import random
from typing import Any

from playwright.sync_api import Browser

from miai.core.go import PASS, Place, Rules, Scoring, new_game, score
from miai.core.go.game import GoState
from miai.core.go.scoring import ownership

SIZE = 9
CONFIGS = [
    (2, Scoring.AREA, False, (0.0, 6.5)),
    (2, Scoring.TERRITORY, False, (0.0, 5.5)),
    (3, Scoring.AREA, True, (0.0, 0.5, 1.0)),
    (3, Scoring.TERRITORY, False, (0.0, 0.0, 0.0)),
]
GAMES_PER_CONFIG = 8


def random_position(rules: Rules, colours: int, rng: random.Random) -> GoState:
    state = new_game(SIZE, rules, colours=colours)
    for _ in range(rng.randrange(20, 70)):
        if state.ended is not None:
            break
        legal = state.legal_points()
        state = state.play(Place(rng.choice(legal)) if legal else PASS)
    return state


def dead_chains(state: GoState, rng: random.Random) -> frozenset[int]:
    """Chains taken as dead: the other colours' chains in one corner, and every other-colour chain bordering
    the same empty region, until one colour alone surrounds it (so the core's ownership gives them away)."""
    board = state.board()
    keep = rng.randrange(state.colours)
    cols, rows = rng.randrange(1, SIZE // 2), rng.randrange(1, SIZE // 2)
    chosen = {
        q
        for p, c in enumerate(board)
        if c is not None and c != keep and p % SIZE < cols and p // SIZE < rows
        for q in state.chain_points(p)
    }
    while True:  # grow through the region: other colours' live stones on its border die too
        region, border = set(chosen), set()
        todo = list(chosen)
        while todo:
            for n in state.geo.neighbours[todo.pop()]:
                if n in region:
                    continue
                if board[n] is None:
                    region.add(n)
                    todo.append(n)
                elif board[n] != keep:
                    border.add(n)
        if not border:
            break
        chosen.update(q for p in border for q in state.chain_points(p))
    while True:  # drop stones no single colour surrounds, and again for what that changes
        owner = ownership(state, chosen)
        kept = {p for p in chosen if owner[p] is not None and owner[p] != board[p]}
        if kept == chosen:
            return frozenset(chosen)
        chosen = kept


def estimate(owner: tuple[int | None, ...], colours: int, rng: random.Random) -> list[float]:
    """Numbers as GET /games/{id}/area sends them, agreeing with `owner` (see engines/estimator/area.py)."""
    out = []
    for colour in owner:
        if colours == 2:
            sure = rng.uniform(0.3, 1.0)
            out.append(rng.uniform(-0.29, 0.29) if colour is None else sure if colour == 0 else -sure)
        elif colour is None:
            out.append(-1.0 if rng.random() < 0.5 else rng.randrange(colours) + rng.uniform(0, 0.24))
        else:
            out.append(colour + rng.uniform(0.25, 0.5))
    return out


def cases(rng: random.Random) -> list[dict[str, Any]]:
    out = []
    for colours, scoring, capture_points, komi in CONFIGS:
        rules = Rules(scoring=scoring, capture_points=capture_points, komi=komi)
        for _ in range(GAMES_PER_CONFIG):
            state = random_position(rules, colours, rng)
            dead = dead_chains(state, rng)
            out.append(
                {
                    "board": [0 if c is None else c + 1 for c in state.board()],
                    "teams": colours,
                    "ownership": estimate(ownership(state, dead), colours, rng),
                    "rules": {"scoring": scoring.value, "capture_points": capture_points, "komi": list(komi)},
                    "position": {
                        "captures": list(state.captured_by),
                        "prisoners": list(state.lost),
                    },
                    "dead": sorted(dead),
                    "totals": [s.total for s in score(state, dead)],
                }
            )
    return out


COMPARE = """
async (cases) => {
  const { areaSummary } = await import('/static/js/area.js');
  const wrong = [];
  cases.forEach((c, i) => {
    const a = areaSummary(c.ownership, c.board, c.teams, c.rules, c.position);
    const dead = [...a.dead].sort((x, y) => x - y);
    const totals = a.scores.map((s) => s.total);
    const close = totals.every((t, k) => Math.abs(t - c.totals[k]) < 1e-9);
    if (dead.join() !== c.dead.join() || !close) {
      wrong.push({ case: i, dead, totals, expected: [c.dead, c.totals] });
    }
  });
  return { wrong: wrong.slice(0, 5), count: wrong.length };
}
"""


def test_area_estimate_scores_like_the_server(browser: Browser, server: str) -> None:
    data = cases(random.Random(20260511))
    assert sum(bool(c["dead"]) for c in data) >= len(data) // 3, "too few positions with dead stones"
    assert any(any(c["position"]["prisoners"]) for c in data), "no captures in the random positions"
    context = browser.new_context(base_url=server)
    try:
        page = context.new_page()
        page.goto("/api/v1/health")
        result = page.evaluate(COMPARE, data)
    finally:
        context.close()
    assert result["count"] == 0, f"{result['count']} of {len(data)} positions differ: {result['wrong']}"
