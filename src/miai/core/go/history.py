"""Superko history shared along a line of play.

States are immutable, but copying a set of every earlier position on every play would make play O(moves).
Instead the states of one line of play share an index `key -> first position number`, and each state
remembers how many positions are its own. A state that is not the newest of its line (after an undo, or in a
search) starts a branch: a small index of its own on top of the shared prefix, so branching is O(1) too.
"""

from __future__ import annotations


class History:
    __slots__ = ("base", "base_len", "first", "size")

    def __init__(self, keys: tuple[int, ...] = (), base: History | None = None, base_len: int = 0) -> None:
        self.base = base
        self.base_len = base_len
        self.first: dict[int, int] = {}
        self.size = base_len
        for key in keys:
            self.first.setdefault(key, self.size)
            self.size += 1

    def seen(self, key: int, length: int) -> bool:
        """Whether `key` is among the first `length` positions of this line."""
        history: History | None = self
        while history is not None:
            index = history.first.get(key)
            if index is not None and index < length:
                return True
            length = min(length, history.base_len)
            history = history.base
        return False

    def extended(self, key: int, length: int) -> History:
        """Append `key` for the state owning the first `length` positions; returns the history to keep."""
        if self.size == length:
            self.first.setdefault(key, length)
            self.size += 1
            return self
        return History((key,), base=self, base_len=length)
