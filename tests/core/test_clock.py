"""Time controls: the per-move limit, Fischer and byo-yomi clocks, worked through move by move."""

from __future__ import annotations

import math

import pytest
from hypothesis import given
from hypothesis import strategies as st

from miai.core.clock import ClockMode, TeamClock, TimeControl

NONE = TimeControl(per_move=60)
FISCHER = TimeControl(per_move=600, mode=ClockMode.FISCHER, main=100, increment=10)
BYOYOMI = TimeControl(per_move=600, mode=ClockMode.BYOYOMI, main=60, periods=3, period=30)


def play(control: TimeControl, *elapsed: float) -> TeamClock:
    clock = control.start()
    for seconds in elapsed:
        clock = clock.after_move(control, seconds)
    return clock


# ----------------------------------------------------------------- per-move limit only


def test_without_a_clock_every_move_gets_the_per_move_limit() -> None:
    assert play(NONE, 59, 1, 30).time_left(NONE) == 60


# ----------------------------------------------------------------- Fischer


def test_fischer_starts_with_the_main_time() -> None:
    assert FISCHER.start() == TeamClock(main=100)
    assert FISCHER.start().time_left(FISCHER) == 100


def test_fischer_spends_the_move_and_adds_the_increment() -> None:
    assert play(FISCHER, 30).main == 80  # 100 - 30 + 10
    assert play(FISCHER, 30, 5).main == 85  # a quick move banks time: 80 - 5 + 10
    assert play(FISCHER, 30, 5).time_left(FISCHER) == 85


def test_fischer_time_is_capped_by_the_per_move_limit() -> None:
    control = TimeControl(per_move=20, mode=ClockMode.FISCHER, main=100, increment=10)
    assert control.start().time_left(control) == 20
    assert play(control, 0, 0, 0).main == 130  # the bank grows, the limit per move stays
    assert play(control, 0, 0, 0).time_left(control) == 20


def test_fischer_overrun_leaves_only_the_increment() -> None:
    # after_move assumes the move was in time; a late one cannot leave less than nothing in the bank.
    assert play(FISCHER, 150).main == 10
    assert play(FISCHER, 150).time_left(FISCHER) == 10


def test_fischer_without_increment_runs_down_to_zero() -> None:
    control = TimeControl(per_move=600, mode=ClockMode.FISCHER, main=100)
    assert play(control, 40, 40).time_left(control) == 20
    assert play(control, 40, 40, 20).time_left(control) == 0


# ----------------------------------------------------------------- byo-yomi


def test_byoyomi_starts_with_main_time_plus_every_period() -> None:
    assert BYOYOMI.start() == TeamClock(main=60, periods=3)
    assert BYOYOMI.start().time_left(BYOYOMI) == 60 + 3 * 30


def test_byoyomi_spends_main_time_first() -> None:
    clock = play(BYOYOMI, 25)
    assert clock == TeamClock(main=35, periods=3)
    assert clock.time_left(BYOYOMI) == 35 + 90
    assert play(BYOYOMI, 60) == TeamClock(main=0, periods=3)  # exactly the main time: no period touched


def test_a_move_within_a_period_keeps_the_period() -> None:
    clock = play(BYOYOMI, 60 + 29)  # main time gone, then 29 s of the first period
    assert clock == TeamClock(main=0, periods=3)
    # The period starts afresh on every move: 29 s again and again never uses one up.
    assert play(BYOYOMI, 89, 29, 29, 29) == TeamClock(main=0, periods=3)
    assert play(BYOYOMI, 89, 29, 29, 29).time_left(BYOYOMI) == 90


def test_periods_are_used_up_one_whole_period_at_a_time() -> None:
    assert play(BYOYOMI, 60 + 30) == TeamClock(main=0, periods=2)  # the first period ran out exactly
    assert play(BYOYOMI, 60 + 45) == TeamClock(main=0, periods=2)  # into the second: the rest is reset
    assert play(BYOYOMI, 60 + 60) == TeamClock(main=0, periods=1)
    assert play(BYOYOMI, 60 + 60, 29).time_left(BYOYOMI) == 30
    assert play(BYOYOMI, 60 + 60, 30) == TeamClock(main=0, periods=0)
    assert play(BYOYOMI, 60 + 60, 30).time_left(BYOYOMI) == 0  # the next move has no time at all


def test_a_long_move_uses_main_time_and_periods_together() -> None:
    clock = play(BYOYOMI, 10, 50 + 30 + 12)  # 50 s of main time left, then one period and 12 s
    assert clock == TeamClock(main=0, periods=2)


def test_byoyomi_without_main_time_starts_in_the_periods() -> None:
    control = TimeControl(per_move=600, mode=ClockMode.BYOYOMI, main=0, periods=2, period=10)
    assert control.start().time_left(control) == 20
    assert play(control, 9.5) == TeamClock(main=0, periods=2)
    assert play(control, 10) == TeamClock(main=0, periods=1)


def test_byoyomi_time_is_capped_by_the_per_move_limit() -> None:
    control = TimeControl(per_move=45, mode=ClockMode.BYOYOMI, main=60, periods=3, period=30)
    assert control.start().time_left(control) == 45
    assert play(control, 40).time_left(control) == 45  # 20 s main + 90 s of periods, but 45 s a move
    assert play(control, 40, 45) == TeamClock(main=0, periods=3)
    # Each 45 s move uses up one 30 s period; with one period left the period, not the limit, is the cap.
    assert play(control, 40, 45, 45).time_left(control) == 45
    assert play(control, 40, 45, 45, 45) == TeamClock(main=0, periods=1)
    assert play(control, 40, 45, 45, 45).time_left(control) == 30


# ----------------------------------------------------------------- hostile values


@pytest.mark.parametrize(
    ("control", "message"),
    [
        (TimeControl(per_move=0), "time per move must be positive"),
        (TimeControl(per_move=-5), "time per move must be positive"),
        (TimeControl(per_move=60, mode=ClockMode.FISCHER, main=0, increment=5), "Fischer"),
        (TimeControl(per_move=60, mode=ClockMode.FISCHER, main=10, increment=-1), "Fischer"),
        (TimeControl(per_move=60, mode=ClockMode.BYOYOMI, main=-1, periods=1, period=10), "byo-yomi"),
        (TimeControl(per_move=60, mode=ClockMode.BYOYOMI, main=0, periods=0, period=10), "byo-yomi"),
        (TimeControl(per_move=60, mode=ClockMode.BYOYOMI, main=0, periods=1, period=0), "byo-yomi"),
        (TimeControl(per_move=math.nan), "finite"),
        (TimeControl(per_move=math.inf), "finite"),
        (TimeControl(per_move=60, mode=ClockMode.FISCHER, main=math.nan, increment=5), "finite"),
        (TimeControl(per_move=60, mode=ClockMode.FISCHER, main=10, increment=math.nan), "finite"),
        (TimeControl(per_move=60, mode=ClockMode.BYOYOMI, main=0, periods=1, period=math.nan), "finite"),
    ],
)
def test_bad_time_controls_are_refused(control: TimeControl, message: str) -> None:
    with pytest.raises(ValueError, match=message):
        control.check()


TIGHT = TimeControl(per_move=2, mode=ClockMode.BYOYOMI, periods=1, period=1)


@pytest.mark.parametrize("control", [NONE, FISCHER, BYOYOMI, TIGHT])
def test_sound_time_controls_pass_the_check(control: TimeControl) -> None:
    control.check()


@pytest.mark.parametrize("control", [FISCHER, BYOYOMI])
def test_a_clock_that_stepped_back_gives_no_time(control: TimeControl) -> None:
    # The server measures moves with the wall clock; if it is set back, the move took no time, not less.
    assert play(control, -30) == play(control, 0)


@pytest.mark.parametrize("control", [NONE, FISCHER, BYOYOMI])
def test_an_elapsed_time_that_is_not_a_number_is_refused(control: TimeControl) -> None:
    with pytest.raises(ValueError, match="not a number"):
        control.start().after_move(control, math.nan)


# ----------------------------------------------------------------- invariants

seconds = st.floats(min_value=0, max_value=10_000, allow_nan=False)
elapsed_lists = st.lists(seconds, max_size=12)
fischer_controls = st.builds(
    TimeControl,
    per_move=st.floats(min_value=1, max_value=10_000),
    mode=st.just(ClockMode.FISCHER),
    main=st.floats(min_value=0.5, max_value=10_000),
    increment=st.floats(min_value=0, max_value=600),
)
byoyomi_controls = st.builds(
    TimeControl,
    per_move=st.floats(min_value=1, max_value=10_000),
    mode=st.just(ClockMode.BYOYOMI),
    main=st.floats(min_value=0, max_value=10_000),
    periods=st.integers(min_value=1, max_value=10),
    period=st.floats(min_value=0.5, max_value=600),
)


def bank(clock: TeamClock, control: TimeControl) -> float:
    """All the time a team has left, ignoring the per-move cap."""
    return clock.main + clock.periods * control.period


@given(control=fischer_controls | byoyomi_controls, moves=elapsed_lists)
def test_time_left_is_never_negative_nor_above_the_per_move_limit(
    control: TimeControl, moves: list[float]
) -> None:
    control.check()
    clock = control.start()
    for elapsed in moves:
        clock = clock.after_move(control, elapsed)
        assert 0 <= clock.time_left(control) <= control.per_move


@given(control=fischer_controls, moves=elapsed_lists)
def test_fischer_time_grows_only_by_the_increment(control: TimeControl, moves: list[float]) -> None:
    clock = control.start()
    for elapsed in moves:
        after = clock.after_move(control, elapsed)
        assert after.main <= clock.main + control.increment
        if elapsed < clock.main:  # in time: exactly what was left, less the move, plus the increment
            assert after.main == pytest.approx(clock.main - elapsed + control.increment)
        clock = after


@given(control=byoyomi_controls, moves=elapsed_lists)
def test_byoyomi_time_never_grows(control: TimeControl, moves: list[float]) -> None:
    clock = control.start()
    for elapsed in moves:
        after = clock.after_move(control, elapsed)
        assert after.main <= clock.main and after.periods <= clock.periods
        assert bank(after, control) <= bank(clock, control)
        clock = after


@given(control=byoyomi_controls, moves=elapsed_lists, share=st.floats(min_value=0, max_value=0.999))
def test_a_move_in_time_never_leaves_a_byoyomi_team_without_time(
    control: TimeControl, moves: list[float], share: float
) -> None:
    clock = control.start()
    for elapsed in moves:
        clock = clock.after_move(control, elapsed)
        if clock.time_left(control) == 0:
            return
    # A move that takes less than all the time left keeps at least part of the last period.
    last = clock.after_move(control, share * bank(clock, control))
    assert last.periods >= 1
    assert last.time_left(control) > 0


@given(control=fischer_controls | byoyomi_controls, a=seconds, b=seconds)
def test_a_slower_move_never_leaves_more_time(control: TimeControl, a: float, b: float) -> None:
    clock = control.start().after_move(control, 17.0)
    faster, slower = sorted((a, b))
    left_after = [bank(clock.after_move(control, elapsed), control) for elapsed in (faster, slower)]
    assert left_after[1] <= left_after[0]


# ----------------------------------------------------------------- time spent without a move


def test_spending_time_without_a_move_earns_no_increment() -> None:
    """A player who resigns or times out leaves the team the time that is left, without the increment."""
    assert FISCHER.start().spend(FISCHER, 30) == TeamClock(main=70)
    assert FISCHER.start().spend(FISCHER, 101) == TeamClock(main=0)  # out of time: nothing left
    assert BYOYOMI.start().spend(BYOYOMI, 60 + 30 + 29) == TeamClock(main=0, periods=2)
    assert BYOYOMI.start().spend(BYOYOMI, 60 + 3 * 30) == TeamClock(main=0, periods=0)
    assert NONE.start().spend(NONE, 59) == NONE.start()


@given(st.floats(min_value=0, max_value=1e6))
def test_a_move_is_the_time_spent_plus_what_a_move_earns(elapsed: float) -> None:
    for control in (NONE, FISCHER, BYOYOMI):
        moved, spent = control.start().after_move(control, elapsed), control.start().spend(control, elapsed)
        assert moved.periods == spent.periods
        assert moved.main == pytest.approx(spent.main + (control.increment if control is FISCHER else 0))
