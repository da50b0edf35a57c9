"""A small local search: can the other colours capture a chain, sacrifices and throw-ins included?

Seki is decided here (SPEC §1.11.6). A shared liberty that nobody can fill *at once* is not enough: Black
may fill it anyway, let White capture, and throw in again until White is left with one eye (a straight
or bent three with Black on the vital point, the 5×5 diagram of §1.11.6). So each chain of a would-be
seki is read out: an attacker (each other colour in turn) tries to capture it, and the defender answers
with any local play or a pass.

Only the chains of the fight can be captured; every other stone is taken to live (the walls around a
seki have liberties elsewhere), and so does a chain joined to such a stone. Plays are made in the empty
regions next to the fight (whole regions, so that no stone played has a liberty nobody may fill) and on
the points its captured stones leave; simple ko holds, suicide is refused. The reading is bounded: at
most MAX_ATTACKS attacker plays, MAX_NODES positions per question and TOTAL_NODES per estimate, and a
chain with more liberties than the attacker has plays left cannot be captured in time (its owner can
pass until then).
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum

from miai.engines.estimator.chains import Chains

MAX_ATTACKS = 6  # attacker plays read; killing a nakade behind a sacrifice takes three or four
MAX_NODES = 10_000  # positions per question (about 0.05 s); beyond, the question is left open
TOTAL_NODES = 40_000  # positions for all the questions of one estimate
MAX_POINTS = 16  # empty points a fight may have to be read at all


class Verdict(Enum):
    """What the reading says of one chain."""

    DEAD = "dead"  # captured even when its owner moves first
    SAFE = "safe"  # cannot be captured even when another colour moves first
    UNSETTLED = "unsettled"  # whoever moves first decides
    OPEN = "open"  # beyond the reading's bounds


class _OutOfNodes(Exception):
    pass


@dataclass
class Budget:
    """The positions the reading may still visit, shared by the questions of one estimate."""

    left: int = TOTAL_NODES


def _regions_around(chains: Chains, liberties: set[int]) -> set[int]:
    """The whole empty regions the liberties lie in (at most MAX_POINTS + 1 points: then too many).

    Whole regions, so that no stone played in the fight has a liberty nobody may fill.
    """
    board = chains.board
    out = set(liberties)
    stack = list(liberties)
    while stack and len(out) <= MAX_POINTS:
        for n in chains.neighbours[stack.pop()]:
            if board[n] is None and n not in out:
                out.add(n)
                stack.append(n)
    return out


class LocalReading:
    """Reads the chains `fight` (chain indices of `chains`) as one local fight."""

    def __init__(self, chains: Chains, fight: set[int], budget: Budget | None = None) -> None:
        self.neighbours = chains.neighbours
        self.board: list[int | None] = list(chains.board)
        stones = {p for i in fight for p in chains.chains[i].points}
        empty = _regions_around(chains, {lib for i in fight for lib in chains.chains[i].liberties})
        self.mortal = stones | empty  # stones elsewhere always live
        self.points = sorted(self.mortal)
        self.empty_count = len(empty)
        # the colours with a stone in or next to the fight (the walls' too) take part
        self.colours = sorted(
            {c for p in self.mortal for n in (p, *self.neighbours[p]) if (c := self.board[n]) is not None}
        )
        self.budget = budget or Budget()
        self.nodes = 0
        self.limit = MAX_NODES
        self.ko = -1
        self.table: dict[tuple[object, ...], bool] = {}
        self.target: frozenset[int] = frozenset()
        self.defender = 0
        self.attacker = 0

    def verdict(self, points: frozenset[int], colour: int) -> Verdict:
        """Whether the chain on `points` (of `colour`) is dead, safe or unsettled in this fight.

        Each other colour attacks on its own: with three colours or more, one colour's loss of its
        stones is not another's gain, so they are not read as one side. Each search visits at most
        MAX_NODES positions, and all of them together what the budget has left; past that, OPEN.
        """
        others = [c for c in self.colours if c != colour]
        if not others or self.empty_count > MAX_POINTS or self.budget.left <= 0:
            return Verdict.OPEN
        self.target, self.defender = points, colour
        killable = False
        start = list(self.board)
        try:
            for attacker in others:
                self.attacker = attacker
                self.table.clear()
                if not self._search(attacking=True):
                    continue
                killable = True
                if self._search(attacking=False):
                    return Verdict.DEAD
        except _OutOfNodes:
            self.board[:] = start  # the search stopped in the middle of a line
            self.ko = -1
            return Verdict.OPEN
        return Verdict.UNSETTLED if killable else Verdict.SAFE

    # ------------------------------------------------------------------ search

    def _search(self, attacking: bool) -> bool:
        self.nodes = 0
        self.limit = min(MAX_NODES, self.budget.left)
        try:
            return self._attacker_wins(attacking, MAX_ATTACKS)
        finally:
            self.budget.left -= self.nodes

    def _attacker_wins(self, attacking: bool, attacks: int) -> bool:
        self.nodes += 1
        if self.nodes > self.limit:
            raise _OutOfNodes
        anchor = next(iter(self.target))
        if self.board[anchor] != self.defender:
            return True  # captured
        liberties = self._liberties(anchor)
        if liberties is None or len(liberties) > attacks:
            return False  # joined to a live stone, or more liberties than plays left
        key = (attacking, attacks, self.ko, *(self.board[p] for p in self.points))
        known = self.table.get(key)
        if known is not None:
            return known
        result = self._attack(attacks, liberties) if attacking else self._defend(attacks)
        self.table[key] = result
        return result

    def _attack(self, attacks: int, liberties: set[int]) -> bool:
        ordered = sorted(self._empty(), key=lambda p: p not in liberties)  # the target's liberties first
        for p in ordered:
            undo = self._play(self.attacker, p)
            if undo is None:
                continue
            wins = self._attacker_wins(attacking=False, attacks=attacks - 1)
            self._undo(undo)
            if wins:
                return True
        return False

    def _defend(self, attacks: int) -> bool:
        ko = self.ko
        self.ko = -1
        wins = self._attacker_wins(attacking=True, attacks=attacks)  # the defender passes
        self.ko = ko
        if not wins:
            return False
        for p in self._empty():
            undo = self._play(self.defender, p)
            if undo is None:
                continue
            wins = self._attacker_wins(attacking=True, attacks=attacks)
            self._undo(undo)
            if not wins:
                return False
        return True

    # ------------------------------------------------------------------ a minimal board

    def _empty(self) -> list[int]:
        return [p for p in self.points if self.board[p] is None and p != self.ko]

    def _chain(self, p: int) -> tuple[list[int], set[int]] | None:
        """The chain at p and its liberties, or None when it holds a stone that always lives."""
        board = self.board
        colour = board[p]
        stones = [p]
        seen = {p}
        liberties: set[int] = set()
        i = 0
        while i < len(stones):
            q = stones[i]
            if q not in self.mortal:
                return None
            for n in self.neighbours[q]:
                if n in seen:
                    continue
                if board[n] is None:
                    liberties.add(n)
                elif board[n] == colour:
                    seen.add(n)
                    stones.append(n)
            i += 1
        return stones, liberties

    def _liberties(self, p: int) -> set[int] | None:
        found = self._chain(p)
        return None if found is None else found[1]

    def _play(self, colour: int, p: int) -> tuple[int, int, list[tuple[int, int]]] | None:
        """Place a stone; the undo record, or None when the play is suicide."""
        board = self.board
        board[p] = colour
        captured: list[tuple[int, int]] = []
        for n in self.neighbours[p]:
            other = board[n]
            if other is None or other == colour:
                continue
            found = self._chain(n)
            if found is not None and not found[1]:
                for q in found[0]:
                    captured.append((q, other))
                    board[q] = None
        own = self._chain(p)
        if not captured and own is not None and not own[1]:
            board[p] = None
            return None
        undo = (p, self.ko, captured)
        single = own is not None and len(own[0]) == 1 and len(own[1]) == 1
        self.ko = captured[0][0] if len(captured) == 1 and single else -1
        return undo

    def _undo(self, undo: tuple[int, int, list[tuple[int, int]]]) -> None:
        p, ko, captured = undo
        self.board[p] = None
        for q, colour in captured:
            self.board[q] = colour
        self.ko = ko
