"""Passwords: their length rules and argon2 hashes (slow on purpose: callers run them off the event loop)."""

from __future__ import annotations

from argon2 import PasswordHasher
from argon2.exceptions import InvalidHashError, VerificationError

_hasher = PasswordHasher()


def set_password_cost(time_cost: int, memory_kib: int) -> None:
    """New hashes use this cost; stored hashes carry their own parameters and still verify."""
    global _hasher
    _hasher = PasswordHasher(time_cost=time_cost, memory_cost=memory_kib)


def hash_password(password: str) -> str:
    return _hasher.hash(password)


def check_password(stored: str, password: str) -> bool:
    try:
        return _hasher.verify(stored, password)
    except (VerificationError, InvalidHashError):
        return False


def validate_password(password: str) -> None:
    if len(password) < 8:
        raise ValueError("password: at least 8 characters")
    if len(password) > 256:
        raise ValueError("password: at most 256 characters")
