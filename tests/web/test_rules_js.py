"""The board's hover hints (static/js/rules.js) agree with the rules core on random positions.

For every point of every sampled position the browser's `analyzePlay` must give the same verdict as the core's
`analyze`: legal, or illegal for the same reason (occupied, suicide, ko, superko), under simple ko, positional
and situational superko, with suicide forbidden and allowed, for two and three colours.
"""

from __future__ import annotations

import random
from typing import Any

from playwright.sync_api import Browser

from miai.core.go import PASS, RESIGN, GoState, KoRule, Place, Rules, Suicide, new_game
from miai.core.go.vertex import format_move, parse_point
from tests.core.go.test_situational_superko import LINES

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


def compare(browser: Browser, server: str, size: int, cases: list[dict[str, Any]]) -> dict[str, Any]:
    context = browser.new_context(base_url=server)
    try:
        page = context.new_page()
        page.goto("/api/v1/health")
        result: dict[str, Any] = page.evaluate(COMPARE, {"size": size, "cases": cases})
    finally:
        context.close()
    return result


def test_hover_legality_matches_the_core(browser: Browser, server: str) -> None:
    rng = random.Random(20261122)
    cases = [case for config in CONFIGS for case in cases_for(*config, rng)]
    reasons = {r for case in cases for r in case["expected"] if r}
    assert {"occupied", "suicide", "ko", "superko"} <= reasons, f"the random games only produced {reasons}"
    result = compare(browser, server, SIZE, cases)
    count, checked = result["count"], result["checked"]
    assert count == 0, f"{count} of {checked} verdicts differ: {result['wrong']}"


def line_case(state: GoState) -> dict[str, Any]:
    """The hover check of `state` with the history the game page keeps: the start, then one entry per move."""
    states = list(state.lineage())[::-1]
    history = [{"board": teams(states[0].board()), "mover": (states[0].to_move - 1) % state.colours + 1}]
    for s in states[1:]:
        move = "autopass" if s.auto_pass else format_move(s.last_move, state.size)  # type: ignore[arg-type]
        history.append({"board": teams(s.board()), "mover": s.last_colour + 1, "move": move})
    expected = []
    for p in range(state.size * state.size):
        a = state.analyze(Place(p))
        expected.append(None if a.legal else a.reason.value)  # type: ignore[union-attr]
    rules = {"ko": state.rules.ko.value, "suicide": state.rules.suicide.value}
    return {"board": history[-1]["board"], "team": state.to_move + 1, "history": history, "rules": rules,
            "expected": expected}  # fmt: skip


def test_hover_legality_counts_the_situations_of_passes(browser: Browser, server: str) -> None:
    """SPEC G3: after a pass, situational superko refuses a play that recreates the pass's situation (the
    lines of tests/core/go/test_situational_superko.py), and every other point agrees with the core too."""
    for line in LINES:
        cases = [line_case(line.state(ko)) for ko in KoRule]
        last = parse_point(line.last, line.size)
        verdicts = [None if line.verdicts[ko] is None else line.verdicts[ko].value for ko in KoRule]
        assert [case["expected"][last] for case in cases] == verdicts  # the core's, as the line says
        result = compare(browser, server, line.size, cases)
        assert result["count"] == 0, f"{line.name}: {result['count']} verdicts differ: {result['wrong']}"


def test_a_resignation_inside_a_team_is_no_pass(browser: Browser, server: str) -> None:
    """Black's first player resigns after White's B2 and Black keeps the move (SPEC G7): no new situation, so
    Black's later B1, which brings back the stones after B2 with White to move, stays legal (as a pass by
    Black there would have made it illegal)."""
    state = new_game(3, Rules(ko=KoRule.SITUATIONAL, allowed_sizes=(3,)), seats=(2, 1))
    for vertex in ("B1", "A2", "C2", "B2"):
        state = state.play(Place(parse_point(vertex, 3)))
    state = state.play(RESIGN)
    for vertex in ("A1", "C1"):
        state = state.play(Place(parse_point(vertex, 3)))
    case = line_case(state)
    assert case["history"][5]["move"] == "resign" and case["expected"][parse_point("B1", 3)] is None
    result = compare(browser, server, 3, [case])
    assert result["count"] == 0, f"{result['count']} verdicts differ: {result['wrong']}"
