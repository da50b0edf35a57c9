"""Clock commands: what the controller says is stored, and the move generator gets its time budget."""

from __future__ import annotations

import pytest

from miai.core.go import PASS
from miai.formats.gtp.go_clock import ClockKind, GtpClock, TimeSettings
from miai.formats.gtp.go_engine import build_go_engine
from tests.formats.gtp.go_helpers import ScriptedGenerator, fails, ok

EMPTY_19 = 361


def test_no_settings_means_no_limit() -> None:
    assert GtpClock().budget(0, EMPTY_19) is None


def test_byo_yomi_time_without_stones_means_no_limit() -> None:
    clock = GtpClock()
    clock.set_canadian(600, 30, 0)
    assert clock.settings.kind is ClockKind.NONE
    assert clock.budget(0, EMPTY_19) is None


def test_absolute_time_is_spread_over_the_moves_left() -> None:
    clock = GtpClock()
    clock.set_canadian(600, 0, 0)
    assert clock.settings == TimeSettings(ClockKind.ABSOLUTE, 600)
    early = clock.budget(0, EMPTY_19)
    late = clock.budget(0, 30)
    assert early is not None and late is not None
    assert 0 < early < late < 600 / 10  # fewer moves left: more per move, never the whole clock
    clock.set_left(0, 60, 0)
    after = clock.budget(0, EMPTY_19)
    assert after is not None and after < early
    assert clock.budget(1, EMPTY_19) == early  # the other colour still has its full main time


def test_canadian_byo_yomi_divides_the_period() -> None:
    clock = GtpClock()
    clock.set_canadian(0, 300, 25)
    first = clock.budget(0, EMPTY_19)
    assert first is not None and 10 < first < 12  # 300 s for 25 moves, with a safety margin
    clock.set_left(0, 20, 2)
    assert clock.budget(0, EMPTY_19) == pytest.approx(0.9 * 10)


def test_japanese_byo_yomi_uses_most_of_a_period() -> None:
    clock = GtpClock()
    clock.configure(TimeSettings(ClockKind.BYOYOMI, 0, 30, 5))
    assert clock.budget(0, EMPTY_19) == pytest.approx(27)
    clock.set_left(1, 12, 1)
    assert clock.budget(1, EMPTY_19) == pytest.approx(0.9 * 12)


def test_settings_reset_the_time_left() -> None:
    clock = GtpClock()
    clock.set_canadian(100, 0, 0)
    clock.set_left(0, 1, 0)
    clock.set_canadian(100, 0, 0)
    assert clock.left == {}


def test_the_generator_gets_the_budget() -> None:
    generator = ScriptedGenerator([PASS, PASS, PASS, PASS])
    engine = build_go_engine(move_generator=generator)
    ok(engine, "boardsize 9")
    ok(engine, "genmove b")
    ok(engine, "time_settings 0 60 10")
    ok(engine, "genmove b")
    ok(engine, "time_left b 12 4")
    ok(engine, "genmove b")
    ok(engine, "kgs-time_settings none")
    ok(engine, "genmove w")
    budgets = [seconds for _, _, seconds in generator.calls]
    assert budgets[0] is None
    assert budgets[1] == pytest.approx(0.9 * 6)
    assert budgets[2] == pytest.approx(0.9 * 3)
    assert budgets[3] is None


def test_kgs_time_settings() -> None:
    engine = build_go_engine()
    ok(engine, "kgs-time_settings none")
    ok(engine, "kgs-time_settings absolute 300")
    ok(engine, "kgs-time_settings byoyomi 300 30 5")
    ok(engine, "kgs-time_settings canadian 300 60 10")
    ok(engine, "kgs-time_settings BYOYOMI 0 30 3")
    assert fails(engine, "kgs-time_settings sudden 300").startswith("unknown time system")
    assert fails(engine, "kgs-time_settings absolute").startswith("kgs-time_settings absolute takes 1")
    assert fails(engine, "kgs-time_settings byoyomi 300 30").startswith("kgs-time_settings byoyomi takes 3")
    assert fails(engine, "kgs-time_settings absolute x").startswith("main time must be a number")
    assert fails(engine, "kgs-time_settings canadian 300 60 x").startswith("stones must be an integer")


@pytest.mark.parametrize(
    ("line", "message"),
    [
        ("time_settings 300 30", "wrong number of arguments"),
        ("time_settings -1 30 5", "main time must not be negative"),
        ("time_settings 300 thirty 5", "byo-yomi time must be a number"),
        ("time_settings 300 30 5.5", "byo-yomi stones must be an integer"),
        ("time_left x 30 0", "invalid colour"),
        ("time_left b -30 0", "time left must not be negative"),
        ("time_left b 30 -1", "stones must not be negative"),
    ],
)
def test_clock_commands_refuse_bad_arguments(line: str, message: str) -> None:
    assert fails(build_go_engine(), line).startswith(message)
