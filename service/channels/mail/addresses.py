"""The seats' secret order addresses and the addresses their answers go to.

An order address is `orders+<secret>@<DRTS_MAIL_DOMAIN>`: the secret is 32 characters of
lowercase base32 (160 random bits; relays may fold a local part's case), shown once with
the seat token and reissued with it. Only its SHA-256 is stored (`mail_order_addresses`,
one row per seat: a new secret replaces the old, which stops at once).

A result address is where a seat's answers go. It gets a confirmation code (stored
hashed, `mail_result_addresses`); until the code comes back (a reply to the confirmation
mail, whose sender is `confirm+<code>@<domain>`, or the code given with the seat token),
nothing but the confirmation is sent there.
"""

from __future__ import annotations

import base64
import hashlib
import re
import secrets
from dataclasses import dataclass
from datetime import datetime
from uuid import UUID

from service.errors import InvalidResultAddressError, UnknownConfirmationCodeError
from service.readmodels.runner import ReadModels

VIEW = "match_list"  # every projection's view reaches the mail tables
ORDERS = "orders"
CONFIRM = "confirm"
MAX_ADDRESS_CHARS = 320
# a result address: an ASCII local part (RFC 5322 atoms and dots) at a domain name with a
# dot (an internationalised one in its punycode form); the API's schema states it too
ADDRESS_PATTERN = (
    r"^[A-Za-z0-9!#$%&'*+/=?^_`{|}~.-]{1,64}@"
    r"[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?(?:\.[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}"
    r"[A-Za-z0-9])?)+$"
)
ADDRESS = re.compile(ADDRESS_PATTERN)


@dataclass(frozen=True)
class SeatAddress:
    """A seat's result address: where its answers go, once confirmed."""

    match_id: UUID
    seat: int
    address: str
    confirmed: bool


def new_secret() -> str:
    """Returns a fresh secret: 32 lowercase base32 characters (160 random bits)."""
    return base64.b32encode(secrets.token_bytes(20)).decode().lower()


def hashed(secret: str) -> str:
    """Returns the SHA-256 (hex) of a secret, as the tables keep it."""
    return hashlib.sha256(secret.lower().encode()).hexdigest()


def secret_of(address: str, kind: str, domain: str) -> str | None:
    """Returns the secret of `kind+<secret>@<domain>` (any case), or None for another address."""
    local, _, at = address.strip().strip("<>").lower().rpartition("@")
    prefix = f"{kind}+"
    if at != domain or not local.startswith(prefix) or len(local) > 64:
        return None
    secret = local[len(prefix) :]
    return secret if re.fullmatch(r"[a-z2-7]{32}", secret) else None


def issue_order_address(
    models: ReadModels, match_id: UUID, seat: int, domain: str, now: datetime
) -> str:
    """Gives the seat a new order address (its old one stops) and returns it."""
    secret = new_secret()
    models.view(VIEW).execute(
        "INSERT INTO {mail_order_addresses} (address_hash, match_id, seat, issued_at) "
        "VALUES (:address_hash, :match_id, :seat, :now) ON CONFLICT (match_id, seat) "
        "DO UPDATE SET address_hash = excluded.address_hash, issued_at = excluded.issued_at",
        {"address_hash": hashed(secret), "match_id": match_id, "seat": seat, "now": now},
    )
    return f"{ORDERS}+{secret}@{domain}"


def seat_of(models: ReadModels, address: str, domain: str) -> tuple[UUID, int] | None:
    """Returns the (match id, seat) whose order address this is, or None."""
    secret = secret_of(address, ORDERS, domain)
    if secret is None:
        return None
    rows = models.view(VIEW).query(
        "SELECT match_id, seat FROM {mail_order_addresses} WHERE address_hash = :h",
        {"h": hashed(secret)},
    )
    return (rows[0]["match_id"], int(rows[0]["seat"])) if rows else None


def checked_address(address: str, domain: str) -> str:
    """Returns a result address as drts keeps it; raises InvalidResultAddressError."""
    text = address.strip()
    local, _, host = text.rpartition("@")
    text = f"{local}@{host.lower()}"
    if len(text) > MAX_ADDRESS_CHARS or not ADDRESS.fullmatch(text):
        raise InvalidResultAddressError(
            f"{address[:MAX_ADDRESS_CHARS]!r} is not a mail address (give name@example.org)"
        )
    if host.lower() == domain:
        raise InvalidResultAddressError(
            f"{text!r} is at drts's own mail domain {domain}: give the player's own address"
        )
    return text


def register_result_address(
    models: ReadModels, match_id: UUID, seat: int, address: str, now: datetime
) -> str:
    """Records the seat's result address, unconfirmed; returns its confirmation code."""
    code = new_secret()
    models.view(VIEW).execute(
        "INSERT INTO {mail_result_addresses} (match_id, seat, address, code_hash, "
        "registered_at, confirmed_at) VALUES (:match_id, :seat, :address, :code_hash, :now, "
        "NULL) ON CONFLICT (match_id, seat) DO UPDATE SET address = excluded.address, "
        "code_hash = excluded.code_hash, registered_at = excluded.registered_at, "
        "confirmed_at = NULL",
        {
            "match_id": match_id,
            "seat": seat,
            "address": address,
            "code_hash": hashed(code),
            "now": now,
        },
    )
    return code


def confirm(models: ReadModels, code: str, now: datetime) -> SeatAddress:
    """Confirms the result address waiting for `code`; raises UnknownConfirmationCodeError."""
    rows = models.view(VIEW).execute(
        "UPDATE {mail_result_addresses} SET confirmed_at = COALESCE(confirmed_at, :now) "
        "WHERE code_hash = :code_hash RETURNING match_id, seat, address",
        {"code_hash": hashed(code.strip()), "now": now},
    )
    if not rows:
        raise UnknownConfirmationCodeError(
            "no result address waits for this confirmation code (a newer address replaced it?)"
        )
    row = rows[0]
    return SeatAddress(row["match_id"], int(row["seat"]), row["address"], confirmed=True)


def is_pending_code(models: ReadModels, code: str) -> bool:
    """Returns whether a result address was registered with this code."""
    rows = models.view(VIEW).query(
        "SELECT 1 AS one FROM {mail_result_addresses} WHERE code_hash = :code_hash",
        {"code_hash": hashed(code)},
    )
    return bool(rows)


def result_address(models: ReadModels, match_id: UUID, seat: int) -> SeatAddress | None:
    """Returns the seat's result address, confirmed or not; None when it has none."""
    rows = models.view(VIEW).query(
        "SELECT address, confirmed_at FROM {mail_result_addresses} "
        "WHERE match_id = :match_id AND seat = :seat",
        {"match_id": match_id, "seat": seat},
    )
    if not rows:
        return None
    return SeatAddress(match_id, seat, rows[0]["address"], rows[0]["confirmed_at"] is not None)


def code_hash_of(models: ReadModels, match_id: UUID, seat: int) -> str | None:
    """Returns the hash of the code the seat's result address waits for (None: no address)."""
    rows = models.view(VIEW).query(
        "SELECT code_hash FROM {mail_result_addresses} WHERE match_id = :match_id AND seat = :seat",
        {"match_id": match_id, "seat": seat},
    )
    return str(rows[0]["code_hash"]) if rows else None
