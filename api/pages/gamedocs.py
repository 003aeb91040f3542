"""A game's docs page (docs/games/<game>.md) as HTML the pages can link ruling ids into.

No Markdown library: headings become headings, the rest is shown as written
(preformatted), and each ruling id (DW-3, DRTS-11) becomes an anchor `#DW-3` at
the first heading naming it, else at its first mention, so a step's ruling links to
where the page explains it.
"""

from __future__ import annotations

import re
from html import escape
from pathlib import Path

from markupsafe import Markup

DOCS = Path(__file__).resolve().parents[2] / "docs" / "games"
RULING = re.compile(r"\b(?:DW|DRTS|SH|DT|BC)-\d+\b")
HEADING = re.compile(r"^(#{1,4})\s+(.*)$")


def docs_path(ruleset: str) -> Path | None:
    """Returns the docs page of a game, or None when there is none beside the app."""
    path = DOCS / f"{ruleset}.md"
    return path if re.fullmatch(r"[a-z0-9_]+", ruleset) and path.is_file() else None


def page_html(text: str) -> Markup:
    """Returns the Markdown text as HTML blocks, with an anchor for each ruling: at the
    first heading naming it (where the page explains it), else at its first mention."""
    in_headings = {
        ruling
        for line in text.splitlines()
        if (heading := HEADING.match(line))
        for ruling in RULING.findall(heading.group(2))
    }
    anchored: set[str] = set()
    blocks: list[str] = []
    lines: list[str] = []

    def flush() -> None:
        if lines:
            body = _anchor(chr(10).join(lines), anchored | in_headings, anchored)
            blocks.append(f"<pre class='doc'>{body}</pre>")
            lines.clear()

    for line in text.splitlines():
        heading = HEADING.match(line)
        if heading:
            flush()
            level = len(heading.group(1)) + 1
            blocks.append(f"<h{level}>{_anchor(heading.group(2), anchored, anchored)}</h{level}>")
        else:
            lines.append(line)
    flush()
    return Markup("\n".join(blocks))


def link_rulings(text: str, docs_url: str) -> Markup:
    """Returns the text escaped, each ruling id in it a link into the game's docs page."""
    return Markup(
        RULING.sub(
            lambda m: f'<a class="ruling" href="{escape(docs_url)}#{m.group(0)}">{m.group(0)}</a>',
            escape(text),
        )
    )


def _anchor(text: str, skipped: set[str], anchored: set[str]) -> str:
    """Returns the text escaped, each ruling id not in `skipped` made an anchor (and
    added to `anchored`)."""

    def mark(found: re.Match[str]) -> str:
        ruling = found.group(0)
        if ruling in skipped or ruling in anchored:
            return ruling
        anchored.add(ruling)
        return f'<span id="{ruling}" class="anchor">{ruling}</span>'

    return RULING.sub(mark, escape(text))
