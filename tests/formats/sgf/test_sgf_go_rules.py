"""The MR extension property holds every rule option exactly; RU names map to Miai's presets and back."""

from __future__ import annotations

import pytest

from miai.core.go import PRESETS, Rules, preset
from miai.formats.sgf import SgfError
from miai.formats.sgf.go_rules import (
    MR_FIELDS,
    decode_rules,
    encode_rules,
    ru_text,
    rules_fields,
    rules_key_of,
)


def test_every_rules_field_has_an_mr_item() -> None:
    assert set(MR_FIELDS) == rules_fields()
    assert [item.partition("=")[0] for item in encode_rules(Rules())] == list(MR_FIELDS)


@pytest.mark.parametrize("key", sorted(PRESETS))
def test_every_preset_survives_mr(key: str) -> None:
    for size in PRESETS[key].base.allowed_sizes[::6] or (9,):
        for handicap in (0, 2):
            rules = preset(key, size, handicap=handicap)
            problems: list[str] = []
            assert decode_rules(encode_rules(rules), problems) == rules
            assert problems == []


@pytest.mark.parametrize(
    ("sizes", "text"),
    [((5, 6, 7, 8), "allowed_sizes=5-8"), ((7, 9, 13, 19), "allowed_sizes=7 9 13 19"),
     ((11,), "allowed_sizes=11"), ((9, 10), "allowed_sizes=9 10")],
)
def test_allowed_sizes_are_written_compactly(sizes: tuple[int, ...], text: str) -> None:
    items = encode_rules(Rules(allowed_sizes=sizes))
    assert text in items
    assert decode_rules(items, []).allowed_sizes == sizes


def test_missing_items_take_the_defaults() -> None:
    assert decode_rules([], []) == Rules()
    expected = Rules(komi=(0.0, 6.5), move_limit_rounds=75)
    assert decode_rules(["komi=0 6.5", "move_limit_rounds=75"], []) == expected
    assert decode_rules(["komi="], []).komi == ()


@pytest.mark.parametrize(
    ("item", "message"),
    [("capture_points=yes", "expected true or false"), ("max_colours=many", "whole number"),
     ("komi=0 six", r"invalid real number \[six\]"), ("allowed_sizes=", "at least one board size"),
     ("scoring=chess", "unknown value 'chess'"), ("move_limit_rounds=-3", "whole number")],
)
def test_bad_values_are_refused_with_the_item_named(item: str, message: str) -> None:
    with pytest.raises(SgfError, match=rf"MR\[{item}\]: .*{message}"):
        decode_rules([item], [])


def test_unknown_or_malformed_items_are_noted() -> None:
    problems: list[str] = []
    assert decode_rules(["colour=blue", "ko"], problems) == Rules()
    assert problems == [
        "MR[colour=blue]: unknown rule option, ignored",
        "MR[ko]: unknown rule option, ignored",
    ]


@pytest.mark.parametrize("key", sorted(PRESETS))
def test_ru_names_of_presets_read_back_as_the_same_key(key: str) -> None:
    assert rules_key_of(ru_text(key)) == key
    assert rules_key_of(f" {ru_text(key).upper()} ") == key
    assert rules_key_of("house rules") is None
