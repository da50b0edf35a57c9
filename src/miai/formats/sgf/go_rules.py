"""Rules in Go records: the standard RU names of Miai's presets, and the MR extension property.

`MR` holds every field of `miai.core.go.Rules` as one `name=value` item per value, so Miai's own records
keep their exact rules: `MR[ko=positional][scoring=dipgo][komi=0 0 0.5]...`. docs/sgf.md lists them all.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable
from dataclasses import dataclass, fields
from enum import StrEnum
from typing import Any

from miai.core.go.rules import (
    DeadStones,
    HandicapBonus,
    HandicapLayout,
    KoRule,
    Rules,
    Scoring,
    Suicide,
)
from miai.formats.sgf.errors import SgfError
from miai.formats.sgf.values import decode_real, encode_real

# RU spellings seen in real records, reduced to lower-case letters and digits, -> Miai preset key.
_RU_KEYS = {
    "japanese": "japanese",
    "jp": "japanese",
    "japan": "japanese",
    "chinese": "chinese",
    "cn": "chinese",
    "china": "chinese",
    "aga": "aga",
    "nz": "nz",
    "newzealand": "nz",
    "tt": "tromp-taylor",
    "tromptaylor": "tromp-taylor",
    "korean": "korean",
    "korea": "korean",
    "ing": "ing",
    "goe": "ing",
    "inggoe": "ing",
    "dgo": "dgo",
    "dipgo": "dipgo",
    "itsyourturn": "itsyourturn",
}

# What the writer puts in RU for each preset: the FF[4] names where the standard has one.
RU_NAMES = {
    "japanese": "Japanese",
    "chinese": "Chinese",
    "aga": "AGA",
    "nz": "NZ",
    "ing": "GOE",
    "korean": "Korean",
    "tromp-taylor": "Tromp-Taylor",
    "dgo": "dgo",
    "dipgo": "dipgo",
    "itsyourturn": "itsyourturn",
}


def rules_key_of(ru: str) -> str | None:
    """The Miai preset key that an RU value names (`Japanese`, `New Zealand`, `TT--`...), or None."""
    return _RU_KEYS.get(re.sub(r"[^a-z0-9]", "", ru.lower()))


def ru_text(rules_key: str) -> str:
    """The RU value written for a preset key; an unknown key is written as it is."""
    return RU_NAMES.get(rules_key, rules_key)


# --- MR: one `name=value` item per Rules field ---


def _enum(kind: type[StrEnum]) -> tuple[Callable[[Any], str], Callable[[str], Any]]:
    def decode(text: str) -> Any:
        try:
            return kind(text)
        except ValueError:
            known = ", ".join(member.value for member in kind)
            raise SgfError(f"unknown value {text!r} (expected one of: {known})") from None

    return (lambda value: str(value.value)), decode


def _decode_bool(text: str) -> bool:
    if text in ("true", "false"):
        return text == "true"
    raise SgfError(f"expected true or false, not {text!r}")


def _decode_int(text: str) -> int:
    if not re.fullmatch(r"[0-9]+", text):
        raise SgfError(f"expected a whole number, not {text!r}")
    return int(text)


def _encode_limit(value: int | None) -> str:
    return "none" if value is None else str(value)


def _decode_limit(text: str) -> int | None:
    return None if text == "none" else _decode_int(text)


def _encode_komi(values: tuple[float, ...]) -> str:
    return " ".join(encode_real(value) for value in values)


def _decode_komi(text: str) -> tuple[float, ...]:
    return tuple(decode_real(part) for part in text.split())


def _encode_sizes(sizes: tuple[int, ...]) -> str:
    """`5-25` for a run of consecutive sizes, else the sizes one by one (`7 9 13 19`)."""
    if len(sizes) > 2 and list(sizes) == list(range(sizes[0], sizes[-1] + 1)):
        return f"{sizes[0]}-{sizes[-1]}"
    return " ".join(str(size) for size in sizes)


def _decode_sizes(text: str) -> tuple[int, ...]:
    sizes: list[int] = []
    for part in text.split():
        low, dash, high = part.partition("-")
        if dash:
            sizes.extend(range(_decode_int(low), _decode_int(high) + 1))
        else:
            sizes.append(_decode_int(part))
    if not sizes:
        raise SgfError("expected at least one board size")
    return tuple(sizes)


@dataclass(frozen=True)
class _Codec:
    encode: Callable[[Any], str]
    decode: Callable[[str], Any]


def _codec(pair: tuple[Callable[[Any], str], Callable[[str], Any]]) -> _Codec:
    return _Codec(*pair)


_BOOL = _Codec(lambda value: "true" if value else "false", _decode_bool)

# Every field of Rules, in the order written. A test checks that no field is missing.
MR_FIELDS: dict[str, _Codec] = {
    "ko": _codec(_enum(KoRule)),
    "scoring": _codec(_enum(Scoring)),
    "suicide": _codec(_enum(Suicide)),
    "dead_stones": _codec(_enum(DeadStones)),
    "komi": _Codec(_encode_komi, _decode_komi),
    "capture_points": _BOOL,
    "remove_inactive_stones": _BOOL,
    "move_limit_rounds": _Codec(_encode_limit, _decode_limit),
    "handicap_bonus": _codec(_enum(HandicapBonus)),
    "handicap_layout": _codec(_enum(HandicapLayout)),
    "seki_territory": _BOOL,
    "allowed_sizes": _Codec(_encode_sizes, _decode_sizes),
    "max_colours": _Codec(str, _decode_int),
}


def encode_rules(rules: Rules) -> list[str]:
    """The values of MR: every field of `rules`, so that reading them back gives an equal Rules."""
    return [f"{name}={codec.encode(getattr(rules, name))}" for name, codec in MR_FIELDS.items()]


def decode_rules(values: Iterable[str], problems: list[str]) -> Rules:
    """Rules from MR values. Missing fields keep Rules' defaults; unknown names are noted and ignored."""
    options: dict[str, Any] = {}
    for item in values:
        name, equals, text = item.partition("=")
        name = name.strip()
        codec = MR_FIELDS.get(name)
        if not equals or codec is None:
            problems.append(f"MR[{item}]: unknown rule option, ignored")
            continue
        try:
            options[name] = codec.decode(text.strip())
        except SgfError as err:
            raise SgfError(f"MR[{item}]: {err.message}") from None
    return Rules(**options)


def rules_fields() -> set[str]:
    return {field.name for field in fields(Rules)}
