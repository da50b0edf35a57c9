"""`miai score FILE.sgf`: score a Go record with the dead-stone estimator (`miai.cli` registers the
subcommand from `add_score_parser` and `score_command`).

The record's last position is scored as if the game had ended there by passes. Rules: `--rules PRESET`,
else the preset the record names (RU, or Miai's own MR), else `chinese`; komi and handicap come from the
record (KM, HA). Text output: the result (`B+3.5`), one line per colour and the dead stones as GTP vertices;
`--json` prints one JSON object instead. A file that cannot be read or scored gives a one-line error on
stderr and exit code 1.
"""

from __future__ import annotations

import argparse
import json
import sys
from dataclasses import replace
from pathlib import Path
from typing import Any

from miai.core.errors import InvalidRules
from miai.core.go import GoState, Result, Rules, Scoring
from miai.core.go.presets import PRESETS
from miai.core.go.rules import DeadStones
from miai.core.go.scoring import EndReason, Score
from miai.core.go.vertex import format_point
from miai.engines.estimator import DEFAULT_PLAYOUTS, Judgement, estimate, score_judged
from miai.engines.estimator.judgement import colour_name
from miai.formats.sgf import SgfError, parse_sgf
from miai.formats.sgf.go import GoRecord, load_go
from miai.formats.sgf.go_nodes import EXT_RULES

__all__ = ["add_score_parser", "score_command"]

DEFAULT_RULES = "chinese"
_LETTERS = {0: "B", 1: "W"}


class ScoreError(Exception):
    """A record that cannot be scored; the message is the one line shown to the user."""


def add_score_parser(subparsers: argparse._SubParsersAction[Any]) -> argparse.ArgumentParser:
    parser: argparse.ArgumentParser = subparsers.add_parser(
        "score",
        help="score a Go record, judging dead stones and seki",
        description="Score the last position of an SGF record as if the game had ended there by passes, "
        "with Miai's dead-stone estimator deciding which stones are dead or in seki.",
    )
    parser.add_argument("file", type=Path, metavar="FILE.sgf", help="the SGF record to score")
    parser.add_argument("--json", action="store_true", help="print one JSON object instead of text")
    parser.add_argument(
        "--rules",
        default=None,
        choices=sorted(PRESETS),
        metavar="PRESET",
        help=f"rules preset (default: the record's RU, else {DEFAULT_RULES}; one of: %(choices)s)",
    )
    parser.add_argument(
        "--playouts",
        type=_positive,
        default=DEFAULT_PLAYOUTS,
        metavar="N",
        help=f"playouts of the estimator (default {DEFAULT_PLAYOUTS})",
    )
    parser.add_argument("--seed", type=_seed, default=0, metavar="N", help="seed of the playouts (default 0)")
    parser.set_defaults(run=score_command)
    return parser


def score_command(args: argparse.Namespace) -> int:
    """Run `miai score`; returns the exit code (0 scored, 1 the file could not be scored)."""
    try:
        record, rules_name = _load(args.file, args.rules)
        judgement = estimate(record.state, args.playouts, args.seed)
        result = score_judged(record.state, judgement)
    except ScoreError as err:
        print(f"miai score: error: {err}", file=sys.stderr)
        return 1
    report = _report(record, rules_name, judgement, result, args)
    print(json.dumps(report, indent=2) if args.json else _text(report))
    return 0


def _positive(text: str) -> int:
    value = _whole(text)
    if value < 1:
        raise argparse.ArgumentTypeError(f"expected at least 1, got {value}")
    return value


def _seed(text: str) -> int:
    value = _whole(text)
    if value < 0:
        raise argparse.ArgumentTypeError(f"expected 0 or more, got {value}")
    return value


def _whole(text: str) -> int:
    try:
        return int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a whole number, got {text!r}") from None


def _load(path: Path, rules_key: str | None) -> tuple[GoRecord, str]:
    """The record replayed under the chosen rules, and a name for those rules."""
    try:
        data = path.read_bytes()
    except OSError as err:
        raise ScoreError(f"cannot read {path}: {err.strerror or err}") from None
    try:
        collection = parse_sgf(data)
        record = load_go(collection)
        if rules_key is None and record.rules_key is None:
            if collection.trees and collection.trees[0].root.has(EXT_RULES):
                return record, "as recorded (MR)"
            rules_key = DEFAULT_RULES
        if rules_key is None:
            rules_key = record.rules_key
        elif rules_key != record.rules_key or "KM" not in record.info:
            record = load_go(collection, rules=_preset_rules(rules_key, record))
    except (SgfError, InvalidRules, ValueError) as err:  # ValueError: a number over Python's digit limit
        raise ScoreError(f"{path}: {err}") from None
    except RecursionError:
        raise ScoreError(f"{path}: the game tree is nested too deeply to read") from None
    return record, rules_key or DEFAULT_RULES


def _preset_rules(key: str, record: GoRecord) -> Rules:
    """The preset's rules for the record's board, colours and handicap, with the record's komi (KM)."""
    state = record.state
    chosen = PRESETS[key]
    if state.size not in chosen.base.allowed_sizes:
        chosen = replace(chosen, base=replace(chosen.base, allowed_sizes=(state.size,)))
    komi = record.rules.komi_of(1) if state.colours == 2 and "KM" in record.info else None
    rules = chosen.rules(state.size, state.colours, state.handicap, komi)
    return rules if state.colours == 2 else replace(rules, komi=record.rules.komi)


def result_text(result: Result, colours: int) -> str:
    """`B+3.5`, `W+R`, `Draw` for two colours; the winner's name and margin over the next for more."""
    if not result.ranking:
        return "no result"
    winners = result.winners
    if not result.scores:
        if result.reason is EndReason.AGREED_DRAW:
            return "Draw"
        return f"{_short(winners[0], colours)}+R" if len(winners) == 1 else "Draw"
    if len(winners) > 1:
        return "Draw" if colours == 2 else "Draw (" + ", ".join(colour_name(c) for c in winners) + ")"
    best = result.scores[winners[0]].total
    margin = best - result.scores[result.ranking[1][0]].total if len(result.ranking) > 1 else 0.0
    return f"{_short(winners[0], colours)}+{margin:g}"


def _short(colour: int, colours: int) -> str:
    return _LETTERS[colour] if colours == 2 else colour_name(colour)


def _score_view(entry: Score, scoring: Scoring) -> dict[str, Any]:
    return {
        "colour": colour_name(entry.colour),
        "stones": entry.stones,
        "territory": entry.territory,
        "captures": entry.captures,
        "prisoners": entry.prisoners,
        "dead": entry.dead,
        "komi": entry.komi,
        "total": entry.total,
        "counting": "territory" if scoring is Scoring.TERRITORY else "area",
    }


def _report(
    record: GoRecord, rules_name: str, judgement: Judgement, result: Result, args: argparse.Namespace
) -> dict[str, Any]:
    state: GoState = record.state
    size = state.size
    rules = state.rules
    all_alive = rules.dead_stones is DeadStones.ALL_ALIVE
    dead: dict[str, list[str]] = {}
    for colour in range(state.colours):
        vertices = [format_point(p, size) for p in sorted(judgement.dead) if state.colour_at(p) == colour]
        if vertices:
            dead[colour_name(colour)] = vertices
    notes = list(record.problems)
    if state.ended is None:
        notes.append("the record does not end the game; its last position is scored as if both passed")
    if all_alive:
        notes.append("these rules count every stone on the board as alive; the dead stones are only shown")
    return {
        "file": str(args.file),
        "result": result_text(result, state.colours),
        "size": size,
        "rules": rules_name,
        "scoring": rules.scoring.value,
        "scores": [_score_view(entry, rules.scoring) for entry in result.scores],
        "ranking": [[colour_name(c) for c in group] for group in result.ranking],
        "dead": dead,
        "seki": [format_point(p, size) for p in sorted(judgement.seki)],
        "neutral": len(judgement.neutral),
        "playouts": args.playouts,
        "seed": args.seed,
        "notes": notes,
    }


def _text(report: dict[str, Any]) -> str:
    lines = [report["result"]]
    for entry in report["scores"]:
        if entry["counting"] == "territory":
            parts = [
                f"territory {entry['territory']}",
                f"- stones lost {entry['prisoners']}",
                f"- dead stones {entry['dead']}",
            ]
        else:
            parts = [f"stones {entry['stones']}", f"+ territory {entry['territory']}"]
        if entry["captures"]:
            parts.append(f"+ captures {entry['captures']}")
        if entry["komi"]:
            parts.append(f"+ komi {entry['komi']:g}")
        lines.append(f"{entry['colour']}: {' '.join(parts)} = {entry['total']:g}")
    if report["dead"]:
        for name, vertices in report["dead"].items():
            lines.append(f"Dead {name}: {' '.join(vertices)}")
    else:
        lines.append("Dead: none")
    if report["seki"]:
        lines.append(f"Seki: {' '.join(report['seki'])}")
    lines.extend(f"Note: {note}" for note in report["notes"])
    return "\n".join(lines)
