"""The repository's Markdown stands alone: no tracked page links outside the repository.

Every relative link (`[text](path)`, `![alt](path)`, `[id]: path`) must resolve
to a file or folder inside the repository, and its `#anchor`, if any, to a
heading of the page it names; absolute paths and `file:` links are refused;
web links (`https:`, `mailto:`) are allowed. A path in code (`../elsewhere`) that
climbs out of the repository is refused too: a clone would not have it.
Fenced code blocks are not read (they hold examples, not links).
"""

from __future__ import annotations

import re
import subprocess
from pathlib import Path
from urllib.parse import unquote

import pytest

ROOT = Path(__file__).resolve().parents[1]
FENCE = re.compile(r"^ {0,3}(```|~~~).*?^ {0,3}\1[^\n]*$", re.M | re.S)
CODE_SPAN = re.compile(r"(`+)(.+?)\1", re.S)
INLINE_LINK = re.compile(r"!?\[(?:[^\[\]]|\[[^\]]*\])*\]\(\s*<?([^)\s>]*)>?(?:\s+\"[^\"]*\")?\s*\)")
REFERENCE = re.compile(r"^ {0,3}\[[^\]]+\]:\s*<?(\S+?)>?(?:\s|$)", re.M)
WEB = re.compile(r"^(https?|mailto|ftp):", re.I)
SCHEME = re.compile(r"^[a-z][a-z0-9+.-]*:", re.I)
HEADING = re.compile(r"^ {0,3}#{1,6}\s+(.*?)\s*#*\s*$", re.M)


def tracked_markdown(root: Path) -> list[Path]:
    """Returns the Markdown files git tracks under `root`, and the new ones it does not
    ignore (every one outside .venv and .git when `root` is not a git checkout).
    """
    try:
        listed = subprocess.run(
            ["git", "ls-files", "-z", "--cached", "--others", "--exclude-standard", "*.md"],
            cwd=root,
            capture_output=True,
            check=True,
        ).stdout.decode()
    except (OSError, subprocess.CalledProcessError):
        skipped = {".venv", ".git"}
        return sorted(p for p in root.rglob("*.md") if not skipped & set(p.relative_to(root).parts))
    return sorted(root / name for name in listed.split("\0") if name)


def anchors(page: Path) -> set[str]:
    """Returns the anchors of a page's headings, as GitHub makes them (lower case, spaces
    to hyphens, punctuation dropped, `-1`, `-2` after a repeat).
    """
    found: set[str] = set()
    for title in HEADING.findall(FENCE.sub("", page.read_text(encoding="utf-8"))):
        text = CODE_SPAN.sub(lambda m: m.group(2), title)
        slug = re.sub(r"[^\w\- ]", "", text.lower()).replace(" ", "-")
        candidate, n = slug, 0
        while candidate in found:
            n += 1
            candidate = f"{slug}-{n}"
        found.add(candidate)
    return found


def link_problem(root: Path, page: Path, target: str) -> str | None:
    """Returns what is wrong with a link from `page` to `target`, or None when it is fine."""
    if WEB.match(target):
        return None
    if SCHEME.match(target) or target.startswith(("/", "\\")):
        return "points outside the repository"
    path, _, anchor = target.partition("#")
    path = unquote(path.split("?")[0])
    linked = (page.parent / path).resolve() if path else page
    if not linked.is_relative_to(root.resolve()):
        return "points outside the repository"
    if not linked.exists():
        return "names a file the repository does not have"
    if anchor and linked.suffix == ".md" and anchor.lower() not in anchors(linked):
        return f"names a heading #{anchor} that {linked.name} does not have"
    return None


def problems(root: Path, page: Path) -> list[str]:
    """Returns every bad link of a page, as `page: target: what is wrong`."""
    text = FENCE.sub("", page.read_text(encoding="utf-8"))
    spans = [m.group(2).strip() for m in CODE_SPAN.finditer(text)]
    prose = CODE_SPAN.sub("", text)
    targets = INLINE_LINK.findall(prose) + REFERENCE.findall(prose)
    targets += [span.split()[0] for span in spans if span.startswith("../")]
    where = page.relative_to(root)
    return [
        f"{where}: {target}: {why}"
        for target in targets
        if (why := link_problem(root, page, target or "#"))
    ]


def test_no_tracked_markdown_links_outside_the_repository():
    pages = tracked_markdown(ROOT)
    assert ROOT / "README.md" in pages and ROOT / "docs" / "architecture.md" in pages
    assert [problem for page in pages for problem in problems(ROOT, page)] == []


@pytest.mark.parametrize(
    ("text", "bad"),
    [
        ("[design](../shared/DESIGN.md)", "points outside the repository"),
        ("the design is in `../shared/DESIGN.md`", "points outside the repository"),
        ("[a rule](/work/shared/rules/district_war.txt)", "points outside the repository"),
        ("[a file](file:///etc/passwd)", "points outside the repository"),
        ("[gone](docs/missing.md)", "names a file the repository does not have"),
        ("[ref]: ../../outside.md", "points outside the repository"),
        ("[api](docs/api.md#no-such-heading)", "names a heading #no-such-heading"),
        ("[api](docs/api.md#the-http-api)", None),
        ("[here](#a-page-title)", None),
        ("[docs](docs/)", None),
        ("[site](https://example.org/x.md)", None),
        ("```\n[example](../outside.md)\n```", None),
    ],
)
def test_the_check_refuses_what_a_clone_would_not_have(tmp_path, text, bad):
    (tmp_path / "docs").mkdir()
    (tmp_path / "docs" / "api.md").write_text("# The HTTP API\n", encoding="utf-8")
    page = tmp_path / "README.md"
    page.write_text(f"# A page title\n\n{text}\n", encoding="utf-8")
    found = problems(tmp_path, page)
    if bad is None:
        assert found == []
    else:
        assert len(found) == 1 and bad in found[0], found
