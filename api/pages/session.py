"""Signed-in pages: a seat's or referee's token exchanged for a session cookie
(docs/pages.md, Signing in).

The cookie is Flask's signed session, keyed by the app's secret key (DRTS_SESSION_SECRET,
or a key drawn per process when unset: docs/operations.md). It holds the match id, the
token and who holds it, and the CSRF token; it is HttpOnly, SameSite=Strict, Secure when
the request came over HTTPS, and is refused once older than DRTS_SESSION_HOURS. Holding
the token itself, a session has the token's authority and no more: every view passes it
to the same service calls as the API, which check it each time (a reissued token stops
its sessions at once). Signing out clears the cookie.
"""

from __future__ import annotations

import hmac
import secrets
from dataclasses import dataclass
from urllib.parse import urlsplit
from uuid import UUID

from flask import Flask, redirect, request, session, url_for
from flask.sessions import SecureCookieSessionInterface
from werkzeug.wrappers import Response

from service.results import Viewer

COOKIE_NAME = "drts_session"
CSRF_FIELD = "csrf"


class CrossSiteRequestError(Exception):
    """Raised when a form post lacks the session's CSRF token or comes from another site."""

    code = "cross_site_request_refused"
    status = 403


@dataclass(frozen=True)
class SignedIn:
    """Who the session's token makes its holder in one match: a seat, or the referee."""

    match_id: UUID
    token: str
    seat: int | None
    referee: bool


class PageSessionInterface(SecureCookieSessionInterface):
    """Flask's signed cookie session, marked Secure exactly when served over HTTPS."""

    def get_cookie_secure(self, app: Flask) -> bool:
        return request.is_secure


def csrf_token() -> str:
    """Returns the session's CSRF token, drawing one for a session that has none."""
    if CSRF_FIELD not in session:
        session[CSRF_FIELD] = secrets.token_urlsafe(32)
    token: str = session[CSRF_FIELD]
    return token


def check_form_post() -> None:
    """Raises CrossSiteRequestError for a POST from another site (its Origin) or without
    the session's CSRF token in its form: a cross-site post carries no SameSite=Strict
    cookie, hence no session and no token to match."""
    if request.method != "POST":
        return
    origin = request.headers.get("Origin")
    if origin is not None and urlsplit(origin).netloc != request.host:
        raise CrossSiteRequestError(f"a form posted from another site ({origin}) is refused")
    sent, held = request.form.get(CSRF_FIELD, ""), session.get(CSRF_FIELD)
    if not held or not hmac.compare_digest(sent.encode(), str(held).encode()):
        raise CrossSiteRequestError(
            "the form does not carry this session's CSRF token: reload the page and send it again"
        )


def sign_in(match_id: UUID, token: str, holder: Viewer) -> None:
    """Starts a new session (a new CSRF token too) holding `token` for the match."""
    session.clear()
    session.permanent = True  # its cookie expires with PERMANENT_SESSION_LIFETIME
    session.update(
        match=str(match_id),
        token=token,
        seat=holder.seat,
        referee=holder.referee,
        name=holder.name if holder.referee else f"seat {holder.seat}",
    )
    csrf_token()


def sign_out() -> str | None:
    """Ends the session: the cookie is cleared. Returns the match it was signed in to."""
    match = session.get("match")
    session.clear()
    return match if isinstance(match, str) else None


def to_sign_in(match_id: UUID) -> Response:
    """Leads to the sign-in form for the match (a page that needs a session it lacks)."""
    return redirect(url_for("signin.sign_in_form", match=match_id), 303)


def signed_in(match_id: UUID) -> SignedIn | None:
    """Returns the session's holder in the match, None when not signed in to it."""
    token = session.get("token")
    if session.get("match") != str(match_id) or not isinstance(token, str):
        return None
    return SignedIn(match_id, token, session.get("seat"), bool(session.get("referee")))


def session_token() -> str | None:
    """Returns the token the session holds (for the per-token rate limit), if any."""
    if COOKIE_NAME not in request.cookies:
        return None  # not a signed-in page: the session is not even opened
    token = session.get("token")
    return token if isinstance(token, str) else None


def signed_in_as() -> tuple[str, str] | None:
    """Returns (who, match id) of the session's holder for the page header, if any."""
    if session_token() is None:
        return None
    return str(session.get("name", "")), str(session.get("match", ""))
