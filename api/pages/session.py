"""Signed-in pages: a seat's or referee's token exchanged for a session kept on the
server (docs/pages.md, Signing in).

The session is a row the service keeps (service/sessions.py: the match, the token,
sealed, and who holds it); the browser's cookie holds only its random key and the CSRF
token, in Flask's signed session, keyed by the app's secret key (DRTS_SESSION_SECRET,
or a key drawn per process when unset: docs/operations.md). The cookie is signed, not
encrypted, so it carries no token: whoever reads it finds the session's key, which
signing out (or the session's end, DRTS_SESSION_HOURS) makes worthless. It is HttpOnly,
SameSite=Strict, Secure when the request came over HTTPS. Holding the token, a session
has the token's authority and no more: every view passes it to the same service calls as
the API, which check it each time (a reissued token stops its sessions at once).
"""

from __future__ import annotations

import hmac
import secrets
from dataclasses import dataclass
from urllib.parse import urlsplit
from uuid import UUID

from flask import Flask, current_app, g, redirect, request, session, url_for
from flask.sessions import SecureCookieSession, SecureCookieSessionInterface
from flask.wrappers import Request
from werkzeug.wrappers import Response

from api.context import matches
from service.results import Viewer
from service.sessions import PageSession

COOKIE_NAME = "drts_session"
CSRF_FIELD = "csrf"
KEY_FIELD = "key"  # the cookie's field holding the server-side session's key


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

    def open_session(self, app: Flask, request: Request) -> SecureCookieSession | None:
        """Flask's, without building the cookie's signer for a request that brings no
        cookie (every API call: issue 46), which gets a new empty session as in Flask's."""
        if app.secret_key and not request.cookies.get(self.get_cookie_name(app)):
            return self.session_class()
        return super().open_session(app, request)


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
    """Starts a new session (a new CSRF token too) holding `token` for the match: a row
    on the server, whose key alone the cookie holds."""
    end_session()
    session.clear()
    session.permanent = True  # its cookie expires with PERMANENT_SESSION_LIFETIME
    name = holder.name if holder.referee else f"seat {holder.seat}"
    lasting = current_app.permanent_session_lifetime
    session[KEY_FIELD] = matches().page_sessions.open(
        match_id, token, holder.seat, holder.referee, name, lasting
    )
    csrf_token()


def sign_out() -> str | None:
    """Ends the session: its row is deleted and the cookie cleared. Returns the match it
    was signed in to."""
    held = current_session()
    end_session()
    session.clear()
    return None if held is None else str(held.match_id)


def end_session() -> None:
    """Deletes the server's row of the cookie's session, if any."""
    key = session.get(KEY_FIELD)
    if isinstance(key, str):
        matches().page_sessions.end(key)
    g.pop("page_session", None)


def current_session() -> PageSession | None:
    """Returns the server's session of the cookie's key (None: none, or ended), read once
    a request; a request without the cookie opens no session at all."""
    if "page_session" not in g:
        key = session.get(KEY_FIELD) if COOKIE_NAME in request.cookies else None
        g.page_session = matches().page_sessions.find(key) if isinstance(key, str) else None
    found: PageSession | None = g.page_session
    return found


def to_sign_in(match_id: UUID) -> Response:
    """Leads to the sign-in form for the match (a page that needs a session it lacks)."""
    return redirect(url_for("signin.sign_in_form", match=match_id), 303)


def signed_in(match_id: UUID) -> SignedIn | None:
    """Returns the session's holder in the match, None when not signed in to it."""
    held = current_session()
    if held is None or held.match_id != match_id:
        return None
    return SignedIn(match_id, held.token, held.seat, held.referee)


def session_token() -> str | None:
    """Returns the token the session holds (for the per-token rate limit), if any."""
    held = current_session()
    return None if held is None else held.token


def signed_in_as() -> tuple[str, str] | None:
    """Returns (who, match id) of the session's holder for the page header, if any."""
    held = current_session()
    return None if held is None else (held.name, str(held.match_id))
