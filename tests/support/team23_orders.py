"""A DRTS Team 23 table's seats and first movement's orders, for the API tests."""

from __future__ import annotations

TEAM23_SEATS = tuple(f"p{n}" for n in range(1, 9))


TEAM23_FIRST = [
    "fire 2>8; team green",
    "team yellow",
    *["hold"] * 6,
]  # as tests/service/test_phases.py
