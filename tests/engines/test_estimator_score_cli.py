"""`miai score FILE.sgf`: text and JSON output, rules choice, and one-line errors for bad input."""

from __future__ import annotations

import argparse
import json
from pathlib import Path

import pytest

from miai.engines.score_cli import add_score_parser, score_command

Capture = pytest.CaptureFixture[str]

# SPEC §1.11.6 (a), a seki with one eye each, as a record: X = AB, O = AW.
SEKI = (
    b"(;GM[1]FF[4]SZ[9]KM[7.5]AB[da][db][dc][dd][de][df][dg][eg][fg][gg][ah][bh][ch][gh][bi][gi]"
    b"AW[ca][cb][cc][cd][ce][cf][ag][bg][cg][dh][eh][fh][di][fi])"
)
# SPEC §1.11.6 (b), which only looks like a seki: the White group is dead.
NOT_SEKI = b"(;GM[1]FF[4]SZ[5]KM[0]AB[ac][bc][cc][dc][ec][ed][ee][be]AW[ad][bd][cd][dd][de])"
# A White stone left inside Black's area on 9x9, after two passes.
DEAD = (
    b"(;GM[1]FF[4]SZ[9]KM[6.5]RU[Chinese]"
    b"AB[ea][eb][ec][ed][ee][ef][eg][eh][ei][af][bf][cf][df][ag][bh][ch][dh][bi][dh][ci]"
    b"AW[fa][fb][fc][fd][fe][ff][fg][fh][fi][cc];B[];W[])"
)


def parser() -> argparse.ArgumentParser:
    top = argparse.ArgumentParser(prog="miai")
    add_score_parser(top.add_subparsers(dest="command"))
    return top


def run(*argv: str) -> int:
    args = parser().parse_args(["score", *argv])
    result: int = args.run(args)
    return result


def record(tmp_path: Path, data: bytes, name: str = "game.sgf") -> str:
    path = tmp_path / name
    path.write_bytes(data)
    return str(path)


def test_text_output_gives_result_breakdown_and_seki(tmp_path: Path, capsys: Capture) -> None:
    assert run(record(tmp_path, SEKI), "--playouts", "300") == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[0] == "B+18.5"
    assert lines[1] == "Black: stones 16 + territory 37 = 53"
    assert lines[2] == "White: stones 14 + territory 13 + komi 7.5 = 34.5"
    assert "Dead: none" in lines
    assert "Seki: B1 D1 F1 A2 B2 C2 D2 E2 F2" in lines
    assert any("scored as if both passed" in line for line in lines)


def test_territory_rules_leave_seki_eyes_to_nobody(tmp_path: Path, capsys: Capture) -> None:
    assert run(record(tmp_path, SEKI), "--rules", "japanese", "--json") == 0
    report = json.loads(capsys.readouterr().out)
    assert report["result"] == "B+16.5", "36 against 12 + komi 7.5: eyes A1 and E1 count for nobody"
    assert report["rules"] == "japanese" and report["scoring"] == "territory"
    assert [entry["territory"] for entry in report["scores"]] == [36, 12]
    assert report["dead"] == {}


def test_dead_stones_are_listed_as_vertices(tmp_path: Path, capsys: Capture) -> None:
    assert run(record(tmp_path, DEAD), "--json", "--seed", "3") == 0
    report = json.loads(capsys.readouterr().out)
    assert report["dead"] == {"White": ["C7"]}
    assert report["rules"] == "chinese" and report["seed"] == 3
    black, white = report["scores"]
    assert black["territory"] > 0 and white["komi"] == 6.5
    assert report["result"] == f"B+{black['total'] - white['total']:g}"
    assert not any("scored as if" in note for note in report["notes"]), "the record ends with two passes"


def test_the_same_seed_gives_the_same_answer(tmp_path: Path, capsys: Capture) -> None:
    path = record(tmp_path, DEAD)
    run(path, "--seed", "5", "--playouts", "200")
    first = capsys.readouterr().out
    run(path, "--seed", "5", "--playouts", "200")
    assert capsys.readouterr().out == first


@pytest.mark.parametrize(
    ("data", "message"),
    [
        (b"(;GM[2]SZ[9])", "is not a Go record"),
        (b"(;GM[1]SZ[40])", "SZ[40]"),
        (b"(;GM[1]SZ[9]XM[3]", None),
    ],
)
def test_bad_records_give_one_line_and_exit_code_1(
    tmp_path: Path, capsys: Capture, data: bytes, message: str | None
) -> None:
    code = run(record(tmp_path, data))
    captured = capsys.readouterr()
    if message is None:  # the forgiving reader repairs this one; it must still be scored, not crash
        assert code == 0
        return
    assert code == 1
    assert captured.out == ""
    assert captured.err.count("\n") == 1 and captured.err.startswith("miai score: error: ")
    assert message in captured.err


def test_missing_file_and_folder(tmp_path: Path, capsys: Capture) -> None:
    assert run(str(tmp_path / "nothing.sgf")) == 1
    assert "cannot read" in capsys.readouterr().err
    assert run(str(tmp_path)) == 1
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "cannot read" in err


def test_rules_for_a_size_the_preset_does_not_offer(tmp_path: Path, capsys: Capture) -> None:
    """Dgo is played on 7, 9, 13 and 19 only; scoring a 5x5 record under it still works."""
    assert run(record(tmp_path, NOT_SEKI), "--rules", "dgo") == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[0] == "B+25", "the record's komi (KM[0]) is kept"
    assert "Dead White: D1 A2 B2 C2 D2" in lines
    assert run(record(tmp_path, NOT_SEKI.replace(b"KM[0]", b"")), "--rules", "dgo") == 0
    assert capsys.readouterr().out.splitlines()[0] == "B+18.5", "without KM, Dgo's komi 6.5"


@pytest.mark.parametrize("argv", [["--playouts", "0"], ["--seed", "-1"], ["--rules", "nope"], []])
def test_bad_arguments_are_refused(argv: list[str]) -> None:
    with pytest.raises(SystemExit) as exit_:
        parser().parse_args(["score", *argv] if argv else ["score"])
    assert exit_.value.code == 2


def test_score_command_is_what_the_parser_runs() -> None:
    args = parser().parse_args(["score", "x.sgf"])
    assert args.run is score_command
