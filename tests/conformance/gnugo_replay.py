"""Replaying SGF records through the Miai core and, command for command, through GNU Go.

A record becomes a GTP script (boardsize, setup, then `play` + `list_stones black` + `list_stones white`
per move) together with the answer Miai's core expects for each line. The script then runs through one GNU
Go process with the commands pipelined (written ahead, answers read in order), which is about three times
faster than waiting for each answer; the answers are compared line by line.
"""

from __future__ import annotations

import subprocess
import tempfile
import threading
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path

from miai.core.errors import IllegalMove, InvalidRules
from miai.core.go import PASS, GoState, KoRule, Pass, Place, Rules, Suicide, new_game
from miai.formats.gtp.protocol import COLUMNS, Response, parse_response
from miai.formats.sgf import SgfError, parse_sgf
from miai.formats.sgf.tree import Node
from miai.formats.sgf.values import decode_move, decode_number, decode_point_list

GNUGO_MAX_SIZE = 19
_NOTHING: frozenset[str] = frozenset()
COLOURS = ("black", "white")


def vertex(point: int, size: int) -> str:
    row, col = divmod(point, size)
    return f"{COLUMNS[col]}{row + 1}"


@cache
def vertex_names(size: int) -> tuple[str, ...]:
    return tuple(vertex(p, size) for p in range(size * size))


def stone_sets(state: GoState) -> tuple[set[str], set[str]]:
    """The vertices of Black's and of White's stones, from the whole board."""
    names = vertex_names(state.size)
    black: set[str] = set()
    white: set[str] = set()
    for p, colour in state.position().items():
        (black if colour == 0 else white).add(names[p])
    return black, white


@dataclass
class Line:
    """One GTP command and what Miai expects: ok or not, and the answer's words when they matter."""

    command: str
    ok: bool = True
    words: frozenset[str] | None = None  # None: do not compare the answer
    move: int = 0  # the record's move number this line belongs to (0 = setup)


@dataclass
class Script:
    path: Path
    lines: list[Line] = field(default_factory=list)
    moves: int = 0
    illegal: str | None = None  # why Miai stopped early: "move 57 (B D4): ko"
    inconsistent: str | None = None  # the core's board disagrees with its own capture reports
    skipped: str | None = None  # why the record was not replayed at all


def replay_rules(size: int) -> Rules:
    """GNU Go's rules for play: simple ko, suicide forbidden."""
    return Rules(ko=KoRule.SIMPLE, suicide=Suicide.FORBIDDEN, allowed_sizes=(size,))


def _setup_changes(node: Node, size: int) -> list[tuple[int, int | None]]:
    changes: list[tuple[int, int | None]] = []
    for prop, colour in (("AE", None), ("AB", 0), ("AW", 1)):
        if node.has(prop):
            for col, row in decode_point_list(node.get_all(prop), size):
                changes.append((row * size + col, colour))
    return changes


def _moves(node: Node, size: int) -> list[tuple[int, Place | Pass]]:
    out: list[tuple[int, Place | Pass]] = []
    for prop, colour in (("B", 0), ("W", 1)):
        for value in node.get_all(prop):
            point = decode_move(value, size)
            out.append((colour, PASS if point is None else Place(point[1] * size + point[0])))
    return out


class _Builder:
    def __init__(self, script: Script, size: int, workdir: Path) -> None:
        self.script = script
        self.size = size
        self.workdir = workdir
        self.rules = replay_rules(size)
        self.state = new_game(size, self.rules)
        self.stones: tuple[set[str], set[str]] = (set(), set())
        self.names = vertex_names(size)
        self.add(f"boardsize {size}", words=_NOTHING)
        self.add("clear_board", words=_NOTHING)

    def add(self, command: str, ok: bool = True, words: frozenset[str] | None = None) -> None:
        self.script.lines.append(Line(command, ok, words, self.script.moves))

    def compare_stones(self) -> None:
        self.add("list_stones black", words=frozenset(self.stones[0]))
        self.add("list_stones white", words=frozenset(self.stones[1]))

    def check_stones(self) -> None:
        """The stone sets kept move by move must be the board itself (a core self-consistency check)."""
        if self.stones != stone_sets(self.state):
            self.script.inconsistent = f"after move {self.script.moves}: the board differs from the stones " \
                "placed minus the stones the core reported as removed"

    def setup(self, changes: list[tuple[int, int | None]]) -> bool:
        """Apply setup stones; False (and a reason) when they leave a chain without liberties."""
        before = self.state.position()
        position = dict(before)
        for point, colour in changes:
            if colour is None:
                position.pop(point, None)
            else:
                position[point] = colour
        only_additions = all(before.get(p) in (None, c) for p, c in changes if c is not None) and all(
            p not in before for p, c in changes if c is None
        )
        try:
            state = new_game(self.size, self.rules, setup=position)
        except InvalidRules as err:
            self.script.illegal = f"setup before move {self.script.moves + 1}: {err}"
            return False
        added = {p: c for p, c in position.items() if p not in before}
        self.state = state
        self.stones = stone_sets(state)
        if only_additions:
            # Placing a legal position's stones one by one never captures: every chain keeps the
            # liberties it has in the final position.
            for point, colour in added.items():
                self.add(f"play {COLOURS[colour]} {vertex(point, self.size)}", words=_NOTHING)
        else:
            self.add(f"loadsgf {self._position_file(position)}")
        self.compare_stones()
        return True

    def _position_file(self, position: dict[int, int]) -> Path:
        """GNU Go cannot remove a stone over GTP: an SGF file holding the position, for loadsgf."""
        size = self.size

        letters = "abcdefghijklmnopqrs"

        def sgf_point(p: int) -> str:
            row, col = divmod(p, size)
            return f"[{letters[col]}{letters[size - 1 - row]}]"

        black = "".join(sgf_point(p) for p, c in sorted(position.items()) if c == 0)
        white = "".join(sgf_point(p) for p, c in sorted(position.items()) if c == 1)
        stones = (f"AB{black}" if black else "") + (f"AW{white}" if white else "")
        text = f"(;GM[1]FF[4]SZ[{size}]{stones})"
        path = self.workdir / f"setup-{len(self.script.lines)}.sgf"
        path.write_text(text)
        return path

    def move(self, colour: int, move: Place | Pass) -> bool:
        self.script.moves += 1
        text = "pass" if isinstance(move, Pass) else vertex(move.point, self.size)
        command = f"play {COLOURS[colour]} {text}"
        try:
            self.state = self.state.play_as(colour, move)
        except IllegalMove as err:
            self.script.illegal = f"move {self.script.moves} ({'BW'[colour]} {text}): {err}"
            self.add(command, ok=False)
            return False
        self.add(command, words=_NOTHING)
        if isinstance(move, Place):
            # Kept incrementally (whole-board sets after every move would triple the test's run time);
            # check_stones compares them with the board at the end of the record.
            names = self.names
            self.stones[colour].add(names[move.point])
            for point in self.state.last_removed:
                name = names[point]
                self.stones[0].discard(name)
                self.stones[1].discard(name)
        self.compare_stones()
        return True


def build_script(path: Path, workdir: Path) -> Script:
    """The GTP script of one record, with Miai's expected answers; stops at the first illegal move."""
    script = Script(path)
    try:
        tree = parse_sgf(path.read_bytes())[0]
        size_text = tree.root.get("SZ")
        size = decode_number(size_text.split(":")[0]) if size_text and size_text.strip() else 19
    except (SgfError, IndexError) as err:
        script.skipped = f"unreadable SGF: {err}"
        return script
    if not 2 <= size <= GNUGO_MAX_SIZE:
        script.skipped = f"board size {size} is outside GNU Go's 2..{GNUGO_MAX_SIZE}"
        return script
    builder = _Builder(script, size, workdir)
    for node in tree.main_line():
        try:
            changes = _setup_changes(node, size)
            moves = _moves(node, size)
        except SgfError as err:
            script.illegal = f"after move {script.moves}: unreadable property ({err})"
            break
        if changes and not builder.setup(changes):
            break
        if not all(builder.move(colour, move) for colour, move in moves):
            break
    builder.check_stones()
    return script


def records(root: Path) -> Iterator[Path]:
    yield from sorted(root.rglob("*.sgf"))


class PipelinedGtp:
    """One GTP engine process; a batch of commands is written ahead while the answers are read."""

    def __init__(self, argv: Sequence[str]) -> None:
        self.proc = subprocess.Popen(
            list(argv), stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL
        )

    def run(self, commands: Sequence[str]) -> list[Response]:
        assert self.proc.stdin is not None and self.proc.stdout is not None
        data = ("\n".join(commands) + "\n").encode()
        stdin = self.proc.stdin

        def write() -> None:
            stdin.write(data)
            stdin.flush()

        writer = threading.Thread(target=write, daemon=True)
        writer.start()
        answers: list[Response] = []
        stdout = self.proc.stdout
        lines: list[str] = []
        while len(answers) < len(commands):
            raw = stdout.readline()
            if not raw:
                raise RuntimeError(f"GNU Go exited after {len(answers)} of {len(commands)} answers")
            text = raw.decode("utf-8", "replace").rstrip("\r\n")
            if text.strip():
                lines.append(text)
            elif lines:
                answers.append(parse_response("\n".join(lines)))
                lines = []
        writer.join()
        return answers

    def close(self) -> None:
        if self.proc.stdin is not None:
            self.proc.stdin.close()
        try:
            self.proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait()
        if self.proc.stdout is not None:
            self.proc.stdout.close()


def first_mismatch(script: Script, answers: Sequence[Response]) -> str | None:
    """The first line where GNU Go's answer differs from Miai's expectation, described; else None."""
    for line, answer in zip(script.lines, answers, strict=True):
        if answer.ok != line.ok:
            want = "accepted" if line.ok else "refused"
            return f"move {line.move}: {line.command!r}: Miai {want} it, GNU Go answered {answer.text!r}"
        if line.words is not None and frozenset(answer.text.split()) != line.words:
            miai = " ".join(sorted(line.words))
            return f"after move {line.move}: {line.command!r}: GNU Go {answer.text!r}, Miai {miai!r}"
    return None


def temporary_directory() -> tempfile.TemporaryDirectory[str]:
    return tempfile.TemporaryDirectory(prefix="miai-replay-")
