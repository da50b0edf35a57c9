"""Turn order, teams, resignation, timeouts and every end condition (SPEC §1.3, §1.7, G5-G7, G9, G11, G12)."""

from __future__ import annotations

import pytest

from miai.core.errors import IllegalMove, IllegalReason, ScoringNeedsJudgement
from miai.core.go import PASS, RESIGN, TIMEOUT, DeadStones, Place, Rules, new_game, outcome, preset
from miai.core.go.scoring import EndReason
from tests.core.go.helpers import from_diagram

THREE = Rules(komi=(0, 0, 0))


def test_team_turns_rotate_in_join_order() -> None:
    """§1.3: T1, T2, T3, T1 ...; inside a team, players take its turns in join order."""
    state = new_game(9, THREE, colours=3, seats=(2, 1, 3))
    seen = []
    for point in range(12):
        seen.append((state.to_move, state.to_move_seat))
        state = state.play(Place(point * 3))
    assert seen == [
        (0, 0), (1, 0), (2, 0),
        (0, 1), (1, 0), (2, 1),
        (0, 0), (1, 0), (2, 2),
        (0, 1), (1, 0), (2, 0),
    ]  # fmt: skip


def test_resignation_keeps_the_move_while_a_teammate_remains() -> None:
    """§1.3: the resigner's next teammate plays now; the resignation uses no turn."""
    state = new_game(9, THREE, colours=3, seats=(3, 1, 1))
    state = state.play(Place(0))  # team 0 seat 0
    state = state.play(Place(2)).play(Place(4))
    assert (state.to_move, state.to_move_seat) == (0, 1)
    state = state.play(RESIGN)  # seat 1 of team 0 leaves
    assert (state.to_move, state.to_move_seat) == (0, 2)
    state = state.play(Place(6))
    state = state.play(Place(8)).play(Place(10))
    assert (state.to_move, state.to_move_seat) == (0, 0)  # rotation skips the resigned seat
    state = state.play(Place(12))
    state = state.play(Place(14)).play(Place(16))
    assert (state.to_move, state.to_move_seat) == (0, 2)


def test_timeout_is_handled_like_resignation() -> None:
    state = new_game(9, THREE, colours=3)
    state = state.play(TIMEOUT)  # team 0's only player times out: colour eliminated
    assert not state.active[0]
    assert state.to_move == 1
    assert state.eliminated == (0,)
    assert not state.is_over


def test_two_colour_resignation_ends_the_game() -> None:
    state = new_game(9).play(Place(40)).play(RESIGN)
    assert state.ended is EndReason.LAST_COLOUR
    result = outcome(state)
    assert result is not None
    assert result.winners == (0,)
    assert result.ranking == ((0,), (1,))


def test_resigning_out_of_turn_is_refused() -> None:
    state = new_game(9)
    with pytest.raises(IllegalMove) as err:
        state.play_as(1, RESIGN)  # type: ignore[arg-type]
    assert "own turn" in str(err.value) or err.value.reason is IllegalReason.NOT_ON_TURN


def test_game_ends_after_as_many_passes_as_colours_in_play() -> None:
    state = new_game(9, THREE, colours=3)
    state = state.play(PASS).play(PASS)
    assert not state.is_over
    state = state.play(PASS)
    assert state.ended is EndReason.PASSES


def test_pass_counter_is_compared_with_the_current_number_of_colours() -> None:
    """G7: A passes, B passes, C resigns -> two colours left, two passes in a row -> game over."""
    state = new_game(9, THREE, colours=3)
    state = state.play(PASS).play(PASS).play(RESIGN)
    assert state.ended is EndReason.PASSES
    result = outcome(state)
    assert result is not None
    assert result.ranking[-1] == (2,)  # the resigned colour ranks last and cannot win (G11)


def test_a_play_resets_the_pass_counter() -> None:
    state = new_game(9).play(PASS).play(Place(40)).play(PASS)
    assert state.passes == 1
    assert not state.is_over


def test_last_colour_standing_wins() -> None:
    state = new_game(9, THREE, colours=3)
    state = state.play(RESIGN).play(RESIGN)
    assert state.ended is EndReason.LAST_COLOUR
    result = outcome(state)
    assert result is not None
    assert result.ranking == ((2,), (1,), (0,))


def test_move_limit_counts_rounds_including_passes() -> None:
    """G5: one round = one turn of every colour in play; itsyourturn 9x9 stops after 75 rounds."""
    rules = preset("itsyourturn", 9)
    assert rules.move_limit_rounds == 75
    state = new_game(9, rules)
    plies = 0
    point = 0
    while not state.is_over:
        while not state.is_legal(Place(point % 81)) and point < 400:
            point += 1
        move = Place(point % 81) if point < 400 else PASS
        state = state.play(move)
        plies += 1
        point += 1
    assert state.ended is EndReason.MOVE_LIMIT
    assert state.rounds == 75
    assert state.plies == 150  # passes (automatic ones too) count


def test_move_limit_round_with_three_colours_and_an_elimination() -> None:
    rules = Rules(komi=(0, 0, 0), move_limit_rounds=2)
    state = new_game(9, rules, colours=3)
    state = state.play(Place(0)).play(Place(10)).play(Place(20))  # round 1
    state = state.play(Place(30)).play(RESIGN)  # colour 1 leaves; colour 2 still owes a turn
    assert not state.is_over
    state = state.play(Place(40))
    assert state.ended is EndReason.MOVE_LIMIT


def test_automatic_pass_when_no_legal_placement() -> None:
    """G6: Black has only suicide points; after White passes the server passes for Black -> game over."""
    state, _ = from_diagram(
        """
        5 . O O . O
        4 O O O O O
        3 O . O O .
        2 O O O O O
        1 . O . O .
          A B C D E
        """,
        to_move=1,
    )
    assert not state.has_legal_placement(0)
    state = state.play(PASS)
    assert state.auto_pass
    assert state.last_colour == 0
    assert state.ended is EndReason.PASSES
    assert [(c, type(m).__name__) for c, m in state.moves()] == [(1, "Pass"), (0, "Pass")]


def test_agreed_draw_ranks_remaining_teams_equal() -> None:
    state = new_game(9, THREE, colours=3).play(RESIGN).agreed_draw()
    result = outcome(state)
    assert result is not None
    assert result.ranking == ((1, 2), (0,))
    assert result.is_draw


def test_equal_scores_share_the_win() -> None:
    """G9: a 2-colour game with equal scores is a draw."""
    state = new_game(5, Rules(komi=(0, 0))).play(PASS).play(PASS)
    result = outcome(state)
    assert result is not None
    assert result.winners == (0, 1)


def test_auto_dead_stones_need_the_estimator() -> None:
    state = new_game(9, Rules(dead_stones=DeadStones.AUTO)).play(PASS).play(PASS)
    with pytest.raises(ScoringNeedsJudgement):
        outcome(state)
    result = outcome(state, dead=())
    assert result is not None


def test_plays_after_the_end_are_refused() -> None:
    state = new_game(9).play(PASS).play(PASS)
    with pytest.raises(IllegalMove) as err:
        state.play(Place(0))
    assert err.value.reason is IllegalReason.GAME_OVER


def test_remove_inactive_stones_option() -> None:
    """G11: an inactive team's stones leave the board, earn no capture points, and enter the history."""
    rules = Rules(komi=(0, 0, 0), remove_inactive_stones=True, capture_points=True)
    state = new_game(9, rules, colours=3)
    state = state.play(Place(0)).play(Place(10)).play(Place(20)).play(Place(30)).play(RESIGN)
    assert state.stones(1) == []
    assert state.captured_by == (0, 0, 0)
    assert state.last_removed == (10,)
    assert state._history.seen(state.hash, state._history_len)


def test_inactive_stones_stay_when_the_option_is_off() -> None:
    state = new_game(9, THREE, colours=3)
    state = state.play(Place(0)).play(Place(10)).play(Place(20)).play(Place(30)).play(RESIGN)
    assert state.stones(1) == [10]


def test_agreed_draw_keeps_the_move_record() -> None:
    """Regression: the draw state had no last colour and hid the game's moves."""
    state = new_game(9, THREE, colours=3).play(Place(3)).agreed_draw()
    assert state.last_colour == -1
    assert [c for c, _ in state.moves()] == [0]
