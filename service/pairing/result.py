"""What a pairing function returns: a round's tables in seat order and its byes, in the
form `Tournament.pair_round` takes and `RoundPaired` records."""

from __future__ import annotations

from dataclasses import dataclass

from domain.errors import DrtsError


@dataclass(frozen=True)
class Pairing:
    """Round `round`'s tables (player ids in seat order; table n is tables[n - 1]) and
    byes (players left out of the round)."""

    round: int
    tables: tuple[tuple[str, ...], ...]
    byes: tuple[str, ...] = ()

    def to_json(self) -> dict[str, object]:
        """Returns the pairing as RoundPaired records it: round, tables, byes."""
        return {
            "round": self.round,
            "tables": [list(table) for table in self.tables],
            "byes": list(self.byes),
        }


class PairingError(DrtsError):
    """Raised when a round cannot be paired by the format's rules (every pairing would
    repeat a meeting: more rounds than the field allows)."""

    code = "no_pairing"
