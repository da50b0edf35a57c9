"""The page's clocks (static/js/clocks.js) count as the server's clock rules (core/clock.py) do.

A running team clock shown `e` seconds into a turn must be the clock the server stores after a move made at
`e` (Fischer: before the increment), and run out exactly when the server would time the team out; the text,
the low-time state, the per-move limit, the server-time estimate and the beep's arming are checked on cases
worked out by hand.
"""

from __future__ import annotations

import random
from typing import Any

import pytest
from playwright.sync_api import Browser, Page

from miai.core.clock import ClockMode, TeamClock, TimeControl


@pytest.fixture(scope="module")
def page(browser: Browser, server: str) -> Any:
    context = browser.new_context(base_url=server)
    page = context.new_page()
    page.goto("/api/v1/health")
    yield page
    context.close()


def run(page: Page, body: str, arg: Any = None) -> Any:
    """Evaluate `body` (an async function body) with the module as `c` and `arg`."""
    return page.evaluate(f"async (arg) => {{ const c = await import('/static/js/clocks.js'); {body} }}", arg)


def random_cases(rng: random.Random) -> list[dict[str, Any]]:
    cases = []
    for _ in range(400):
        byoyomi = rng.random() < 0.6
        if byoyomi:
            control = TimeControl(
                per_move=1e9,
                mode=ClockMode.BYOYOMI,
                main=rng.choice([0.0, rng.uniform(0, 600)]),
                periods=rng.randint(1, 5),
                period=rng.choice([5.0, 10.0, 30.0, rng.uniform(1, 60)]),
            )
            stored = TeamClock(
                main=rng.choice([0.0, rng.uniform(0, control.main)]), periods=rng.randint(0, 5)
            )
        else:
            control = TimeControl(
                per_move=1e9, mode=ClockMode.FISCHER, main=rng.uniform(1, 600), increment=rng.uniform(0, 30)
            )
            stored = TeamClock(main=rng.uniform(0, 700))
        total = stored.time_left(control)
        elapsed = rng.choice([0.0, rng.uniform(0, total), rng.uniform(0, 2 * total + 1)])
        if byoyomi and control.period and elapsed > stored.main:
            fraction = (elapsed - stored.main) / control.period
            if abs(fraction - round(fraction)) < 1e-6:
                continue  # on a period's very edge float rounding may fall either side
        flagged = elapsed >= total
        after = None if flagged else stored.after_move(control, elapsed)
        cases.append(
            {
                "o": {
                    "clock": control.mode.value,
                    "main_time": control.main,
                    "increment": control.increment,
                    "periods": control.periods,
                    "period_time": control.period,
                },
                "stored": {"main": stored.main, "periods": stored.periods},
                "elapsed": elapsed,
                "flagged": flagged,
                "left": max(0.0, total - elapsed),
                # Fischer: the server adds the increment after the move; the page shows the clock before it.
                "main": None if after is None else after.main - control.increment,
                "periods": None if after is None else after.periods,
            }
        )
    return cases


COMPARE = """
  const wrong = [];
  for (const k of arg) {
    const s = c.clockAt(k.o, k.stored, k.elapsed);
    const close = (a, b) => Math.abs(a - b) < 1e-6;
    const ok = s.flagged === k.flagged && close(s.left, k.left)
      && (k.main === null || (close(s.main, k.main) && s.periods === k.periods));
    if (!ok) wrong.push({ case: k, got: s });
  }
  return wrong.slice(0, 5);
"""


def test_the_running_clock_agrees_with_the_server_rules(page: Page) -> None:
    cases = random_cases(random.Random(24))
    assert sum(c["flagged"] for c in cases) > 40 and sum(not c["flagged"] for c in cases) > 200
    assert run(page, COMPARE, cases) == []


def test_fischer_clock_text_and_low_time(page: Page) -> None:
    o = {"clock": "fischer", "main_time": 300, "increment": 5}
    shown = run(
        page,
        "return [0, 1.2, 263, 290.5, 301].map((e) => { const s = c.clockAt(arg, {main: 300}, e);"
        " return [c.clockLabel(s), s.low, s.flagged]; });",
        o,
    )
    # Low time: an eighth of 5 minutes is 37.5 s.
    assert shown == [
        ["05:00", False, False],
        ["04:58", False, False],
        ["00:37", True, False],
        ["00:09", True, False],
        ["00:00", True, True],
    ]


def test_byoyomi_main_time_then_periods(page: Page) -> None:
    o = {"clock": "byoyomi", "main_time": 60, "periods": 3, "period_time": 30}
    shown = run(
        page,
        "return [0, 59.5, 60, 81, 95, 125, 150.5].map((e) => {"
        " const s = c.clockAt(arg, {main: 60, periods: 3}, e); return [c.clockLabel(s), s.low]; });",
        o,
    )
    assert shown == [
        ["01:00 + 3×30 s", False],
        ["00:00 + 3×30 s", False],  # main time is not low while periods follow
        ["00:30 (3 periods)", False],
        ["00:09 (3 periods)", True],  # the last 10 s of a period
        ["00:25 (2 periods)", False],  # the first period was used up
        ["00:25 (last period)", False],
        ["00:00", True],
    ]
    # A clock that is not running shows its full period.
    idle = run(page, "return c.clockLabel(c.clockAt(arg, {main: 0, periods: 2}, 0));", o)
    assert idle == "00:30 (2 periods)"


def test_no_clock_without_a_time_system(page: Page) -> None:
    assert run(page, "return c.clockAt({clock: 'none'}, {main: 0, periods: 0}, 5);") is None


def test_low_thresholds_follow_lichess(page: Page) -> None:
    got = run(page, "return [0, 40, 80, 300, 480, 600, 86400].map(c.lowThreshold);")
    assert got == [10, 10, 10, 37.5, 60, 60, 60]


def snap(**changes: Any) -> dict[str, Any]:
    base = {
        "status": "active",
        "options": {
            "teams": 3,
            "clock": "fischer",
            "main_time": 120,
            "increment": 10,
            "seconds_per_move": 86400,
        },
        "clocks": {"1": {"main": 100}, "2": {"main": 50}, "3": {"main": 5}},
        "to_move": {"team": 2, "seat": 0},
        "turn_started_at": "2026-01-01T00:00:00+00:00",
        "deadline": "2026-01-01T00:00:50+00:00",
    }
    return {**base, **changes}


TURN = """
  const now = Date.parse('2026-01-01T00:00:00+00:00') + arg.after * 1000;
  const t = c.turnClocks(arg.snap, now);
  return { low: t.low, left: t.left, clocks: t.clocks.map((x) => [x.team, x.text, x.running, x.state.low]) };
"""


def test_only_the_team_on_move_runs_in_a_three_colour_game(page: Page) -> None:
    turn = run(page, TURN, {"snap": snap(), "after": 12.5})
    assert turn["clocks"] == [
        [1, "01:40", False, False],
        [2, "00:37", True, False],
        [3, "00:05", False, True],  # low, though not running (an eighth of 2 min is under 10 s)
    ]
    assert turn["left"] == 37.5 and turn["low"] is False
    assert run(page, TURN, {"snap": snap(), "after": 41})["low"] is True
    finished = run(page, TURN, {"snap": snap(status="finished", to_move={}), "after": 41})
    assert [running for _, _, running, _ in finished["clocks"]] == [False, False, False]


def test_a_per_move_limit_that_comes_first_decides_low_time(page: Page) -> None:
    # Per-move limit 30 s (low under 10 s) before the team's 50 s of main time.
    limited = snap(
        options={**snap()["options"], "seconds_per_move": 30}, deadline="2026-01-01T00:00:30+00:00"
    )
    assert run(page, TURN, {"snap": limited, "after": 19})["low"] is False
    turn = run(page, TURN, {"snap": limited, "after": 21})
    assert turn["low"] is True and turn["clocks"][1][3] is False  # the team clock itself is not low
    # Without a clock, only the per-move limit counts.
    plain = snap(options={"teams": 2, "clock": "none", "seconds_per_move": 30}, clocks={})
    plain["deadline"] = "2026-01-01T00:00:30+00:00"
    assert run(page, TURN, {"snap": plain, "after": 25}) == {"low": True, "left": 5, "clocks": []}


SERVER_CLOCK = """
  let perf = 1000;
  const clock = new c.ServerClock(() => perf, () => 5);
  const out = [clock.now()];  // no sample yet: the browser's own clock
  // Sent at 1000, answered at 1100: the server read its clock (10 000 000) at about 1050.
  clock.sample(new Date(10000000).toISOString(), 1000, 1100);
  perf = 2050;
  out.push(clock.now());
  clock.sample(new Date(10005000).toISOString(), 3000, 4000);  // a slow answer: not used
  out.push(clock.now());
  clock.sample(new Date(10002000).toISOString(), 3000, 3020);  // a quick one replaces the estimate
  perf = 4010;
  out.push(clock.now());
  const fresh = new c.ServerClock(() => perf, () => 5);
  fresh.hint(new Date(20000000).toISOString(), 4000);  // a websocket snapshot: no round trip known
  out.push(fresh.now());
  fresh.sample(new Date(30000000).toISOString(), 4000, 4010);
  out.push(fresh.now());
  return out;
"""


def test_server_time_from_samples(page: Page) -> None:
    assert run(page, SERVER_CLOCK) == [5, 10001000, 10001000, 10003000, 20000010, 30000005]


def test_the_alarm_beeps_once_per_low_stretch(page: Page) -> None:
    steps = [
        (False, True),  # my turn, plenty of time
        (True, True),  # low: beep
        (True, True),  # still low: silent
        (True, False),  # the others' turn, my clock still low: silent, stays unarmed
        (True, True),  # my turn again, still low: silent
        (False, False),  # an increment brought it out of low time
        (True, True),  # low again: beep
        (True, False),
    ]
    got = run(
        page, "const a = new c.LowTimeAlarm(); return arg.map(([low, mine]) => a.update(low, mine));", steps
    )
    assert got == [False, True, False, False, False, False, True, False]
