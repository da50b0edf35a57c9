"""Stored Go records replay under the ko rule of today, and still load when it became stricter since."""

from __future__ import annotations

import pytest

from miai.core.errors import IllegalMove, IllegalReason
from miai.core.go.vertex import parse_point
from miai.server.play.kinds import table_of

# Black passes after White's B2 (and D1, G7 elsewhere), White takes the ko at C1, Black retakes at B1 at once.
# Situational superko refuses the retake since passes count (SPEC G3, issue 20); the server allowed it before.
RETAKE_AFTER_A_PASS = ["B1", "A1", "C2", "B2", "D1", "G7", "pass", "C1", "B1"]


def test_a_record_stored_before_passes_counted_still_loads(caplog: pytest.LogCaptureFixture) -> None:
    table = table_of("go", {"size": 7, "ko": "situational"})
    state = table.new_state()
    for text in RETAKE_AFTER_A_PASS[:-1]:
        state = table.replay(state, text)
    retake = parse_point("B1", 7)
    assert state.analyze(table.parse(state, "B1")).reason is IllegalReason.SUPERKO  # today's rule
    state = table.replay(state, "B1")
    assert state.colour_at(retake) == 0 and state.colour_at(parse_point("C1", 7)) is None
    assert state.plies == len(RETAKE_AFTER_A_PASS) and state.to_move == 1
    assert "which the current ko rule refuses" in caplog.text


def test_other_illegal_records_are_still_refused() -> None:
    table = table_of("go", {"size": 7, "ko": "situational"})
    state = table.replay(table.new_state(), "B1")
    with pytest.raises(IllegalMove) as err:
        table.replay(state, "B1")
    assert err.value.reason is IllegalReason.OCCUPIED


# White captures at C1 and Black retakes at once, with no pass in between: a ko under every rule, then as now.
IMMEDIATE_RETAKE = ["B1", "A1", "C2", "B2", "D1", "C1", "B1"]


@pytest.mark.parametrize(
    ("ko", "reason"),
    [
        ("simple", IllegalReason.KO),
        ("positional", IllegalReason.SUPERKO),
        ("situational", IllegalReason.SUPERKO),
    ],
)
def test_a_record_that_broke_the_ko_rule_is_refused(ko: str, reason: IllegalReason) -> None:
    """The leniency above is for the one rule that changed: a record breaking ko otherwise stays refused."""
    table = table_of("go", {"size": 7, "ko": ko})
    state = table.new_state()
    for text in IMMEDIATE_RETAKE[:-1]:
        state = table.replay(state, text)
    with pytest.raises(IllegalMove) as err:
        table.replay(state, IMMEDIATE_RETAKE[-1])
    assert err.value.reason is reason


def test_a_retake_after_a_pass_is_refused_under_positional_superko() -> None:
    """Positional superko never ignored passes: the record above breaks it, stored today or before."""
    table = table_of("go", {"size": 7, "ko": "positional"})
    state = table.new_state()
    for text in RETAKE_AFTER_A_PASS[:-1]:
        state = table.replay(state, text)
    with pytest.raises(IllegalMove) as err:
        table.replay(state, RETAKE_AFTER_A_PASS[-1])
    assert err.value.reason is IllegalReason.SUPERKO


def test_an_earlier_pass_does_not_excuse_a_retake_of_a_situation_a_play_made() -> None:
    """The old rule ignored only the situations passes made: a pass long before an immediate retake changes
    nothing, the retake repeats the situation Black's D1 made and was refused then as now."""
    table = table_of("go", {"size": 7, "ko": "situational"})
    state = table.new_state()
    for text in ["G7", "pass", *IMMEDIATE_RETAKE[:-1]]:
        state = table.replay(state, text)
    with pytest.raises(IllegalMove) as err:
        table.replay(state, IMMEDIATE_RETAKE[-1])
    assert err.value.reason is IllegalReason.SUPERKO


def test_a_record_from_outside_is_held_to_todays_rule() -> None:
    """An upload is not a record this server stored: the retake after a pass is refused there."""
    table = table_of("go", {"size": 7, "ko": "situational"})
    state = table.new_state()
    for text in RETAKE_AFTER_A_PASS[:-1]:
        state = table.replay(state, text, stored=False)
    with pytest.raises(IllegalMove) as err:
        table.replay(state, RETAKE_AFTER_A_PASS[-1], stored=False)
    assert err.value.reason is IllegalReason.SUPERKO


def test_an_uploaded_record_that_breaks_situational_superko_is_refused() -> None:
    from miai.server.play.uploads import BadRecord, read_upload

    moves = ";B[bg];W[ag];B[cf];W[bf];B[dg];W[ga];B[];W[cg]"
    assert read_upload(f"(;GM[1]FF[4]SZ[7]RU[AGA]{moves})".encode()).steps  # the line up to the retake
    with pytest.raises(BadRecord, match=r"move 9 \(B1\)"):
        read_upload(f"(;GM[1]FF[4]SZ[7]RU[AGA]{moves};B[bg])".encode())
