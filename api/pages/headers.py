"""The headers that keep the pages from being framed, sniffed or cached where they hold a
seat's orders or the referee's desk (docs/operations.md, Headers of the pages).

- Every response under /ui (pages, their error pages, the static CSS and JS) gets the
  pages' Content-Security-Policy: scripts, styles and everything else from this origin
  only, no inline script, style or handler (the templates have none: their scripts and
  styles are files under /ui/static), forms posted to this origin only, and no framing
  by any page (`frame-ancestors 'none'`, and X-Frame-Options: DENY for browsers that
  predate it); X-Content-Type-Options: nosniff; Referrer-Policy: same-origin (no
  address of a page leaves for another site; a same-origin form post keeps its Origin
  header, which the CSRF check reads).
- The signed-in pages (sign-in, a seat's page, the referee's pages and their downloads)
  are also Cache-Control: no-store: a seat's orders, the referee's desk and a reissued
  token are never kept by a browser's or a proxy's cache.
- The interactive API docs (/docs, flask-smorest's Swagger UI page, which boots with an
  inline script) get the same framing, sniffing and referrer headers, and a policy of
  `frame-ancestors 'none'` alone: the page shows nothing but this service's own OpenAPI
  document, so a script policy would guard no content there, while a hash of the
  library's inline script would break the page whenever its template changes.

The JSON API is left as it is: its answers are not pages, and no browser frames them.
"""

from __future__ import annotations

from flask import Flask, request
from werkzeug.wrappers import Response

PAGES_POLICY = "; ".join(
    (
        "default-src 'none'",
        "script-src 'self'",
        "style-src 'self'",
        "img-src 'self'",
        "connect-src 'self'",
        "form-action 'self'",
        "base-uri 'none'",
        "frame-ancestors 'none'",
    )
)
DOCS_POLICY = "frame-ancestors 'none'"
COMMON = {
    "X-Frame-Options": "DENY",
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "same-origin",
}
SIGNED_IN_PAGES = ("signin", "seat", "referee")  # blueprints of the signed-in pages


def protect_pages(app: Flask) -> None:
    """Makes the app send the pages' headers (module docstring) on /ui and /docs."""
    app.after_request(pages_headers)


def pages_headers(response: Response) -> Response:
    """Adds the headers of the page being answered, if it is one (module docstring)."""
    path = request.path
    if path == "/ui" or path.startswith("/ui/"):
        response.headers.update(COMMON)
        response.headers["Content-Security-Policy"] = PAGES_POLICY
        if request.blueprint in SIGNED_IN_PAGES:
            response.headers["Cache-Control"] = "no-store"
    elif path == "/docs" or path.startswith("/docs/"):
        response.headers.update(COMMON)
        response.headers["Content-Security-Policy"] = DOCS_POLICY
    return response
