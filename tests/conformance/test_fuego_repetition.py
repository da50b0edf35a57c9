"""Conformance: Fuego's ko and superko regression cases, answered by Miai's GTP engine.

repetition.tst loads a position (`loadsgf FILE MOVE`), switches Fuego's ko rule (`go_param_rules ko_rule
simple|superko|pos_superko`) and asks `is_legal`, with the expected answer on the following `#?` line.
Fuego's ko rules map to Miai presets with the same ko rule and suicide forbidden: simple -> chinese
(simple ko), superko -> aga (situational superko), pos_superko -> dipgo (positional superko). Each ko
rule switch builds a fresh engine under that preset and repeats the last loadsgf.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path

import pytest

from miai.core.go import KoRule
from miai.core.go.presets import PRESETS
from miai.formats.gtp import GtpEngine, parse_response
from miai.formats.gtp.go_engine import build_go_engine
from tests.conftest import shared_data

KO_PRESETS = {"simple": "chinese", "superko": "aga", "pos_superko": "dipgo"}
EXPECTED = re.compile(r"#\?\s*\[(.*)\]")


@dataclass
class Case:
    number: str
    ko_rule: str
    load: str
    question: str
    expected: str


def cases(folder: Path) -> list[Case]:
    """The test cases of repetition.tst; the SGF paths point into `folder / sgf`."""
    found: list[Case] = []
    load = ko_rule = ""
    pending: tuple[str, str] | None = None
    for raw in (folder / "repetition.tst").read_text().splitlines():
        line = raw.strip()
        expected = EXPECTED.match(line)
        if expected:
            assert pending is not None, f"an expected answer without a question: {line}"
            found.append(Case(pending[0], ko_rule, load, pending[1], expected.group(1)))
            pending = None
        elif not line or line.startswith("#"):
            continue
        elif line.startswith("loadsgf "):
            _, path, *rest = line.split()
            # The .tst names sgf/repetition/NAME.sgf; the files are in sgf/NAME.sgf.
            load = " ".join(["loadsgf", str(folder / "sgf" / Path(path).name), *rest])
        elif line.startswith("go_param_rules ko_rule "):
            ko_rule = line.split()[-1]
        else:
            number, question = line.split(maxsplit=1)
            pending = (number, question)
    return found


def ask(engine: GtpEngine, line: str) -> tuple[bool, str]:
    answer = engine.handle_line(line)
    assert answer is not None
    response = parse_response(answer)
    return response.ok, response.text


def test_the_preset_mapping_keeps_the_ko_rules() -> None:
    assert PRESETS["chinese"].base.ko is KoRule.SIMPLE
    assert PRESETS["aga"].base.ko is KoRule.SITUATIONAL
    assert PRESETS["dipgo"].base.ko is KoRule.POSITIONAL


@pytest.mark.no_cover  # untraced: a whole corpus (README, "Tests and benchmarks")
@pytest.mark.conformance
def test_every_repetition_case() -> None:
    folder = shared_data("fuego-repetition")
    found = cases(folder)
    assert len(found) == 15
    assert {case.ko_rule for case in found} == set(KO_PRESETS)
    failures = []
    for case in found:
        engine = build_go_engine(KO_PRESETS[case.ko_rule])
        ok, text = ask(engine, case.load)
        assert ok, f"{case.load}: {text}"
        ok, answer = ask(engine, case.question)
        if not ok or answer != case.expected:
            failures.append(f"{case.number} ({case.ko_rule}) {case.question}: expected {case.expected}, got "
                            f"{answer!r}")
    assert not failures, "\n".join(failures)
