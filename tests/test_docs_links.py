"""The README and the pages under docs/: a guide that stays short, links that lead somewhere.

Every relative link and image in README.md and docs/*.md resolves to a file in the repository
(and an anchor into a Markdown page, where one is given, to one of its headings); no link leaves
the repository except to the sites listed in EXTERNAL (none); the README is at most 400 lines;
and no page keeps the diary (an issue's number, "this branch", "this wave"): history is
CHANGELOG.md's.
"""

from __future__ import annotations

import re
import unicodedata
from pathlib import Path

import pytest

ROOT = Path(__file__).parents[1]
PAGES = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]
README_LINES = 400
EXTERNAL: frozenset[str] = frozenset()  # sites a page may link to deliberately (host names)
DIARY = re.compile(r"\bissues?\s*(?:#|no\.?\s*)?\d+|\bthis\s+branch\b|\bthis\s+wave\b", re.I)

FENCE = re.compile(r"^(```|~~~).*?^\1[^\n]*$", re.M | re.S)
CODE_SPAN = re.compile(r"(`+)(?:(?!\1).)+?\1", re.S)
INLINE = re.compile(r"!?\[(?:[^\[\]]|\[[^\]]*\])*\]\(\s*<?([^)\s>]+)>?(?:\s+\"[^\"]*\")?\s*\)")
REFERENCE = re.compile(r"^\s{0,3}\[[^\]]+\]:\s*<?(\S+?)>?(?:\s+\"[^\"]*\")?\s*$", re.M)
HTML = re.compile(r"<(?:a|img)\b[^>]*?\b(?:href|src)\s*=\s*[\"']([^\"']+)[\"']", re.I)
BARE = re.compile(r"(?<![(<\"'])\b(?:https?|ftp)://[^\s)>\]]+")
SCHEME = re.compile(r"^[a-z][a-z0-9+.-]*:", re.I)


def prose(text: str) -> str:
    """The text without its code: fenced blocks and code spans hold commands, not links."""
    return CODE_SPAN.sub("", FENCE.sub("", text))


def links(text: str) -> list[str]:
    """Every link and image target of a Markdown text, in order, code left out."""
    body = prose(text)
    found = [(m.start(), m.group(1)) for r in (INLINE, REFERENCE, HTML) for m in r.finditer(body)]
    found += [(m.start(), m.group(0)) for m in BARE.finditer(body)]
    return [target for _, target in sorted(found)]


def slug(heading: str) -> str:
    """A heading's anchor as GitHub makes it: lower case, punctuation dropped, spaces to dashes."""
    text = heading.replace("`", "").strip().lower()
    text = re.sub(r"[*_]", "", re.sub(r"!?\[([^\]]*)\]\([^)]*\)", r"\1", text))
    kept = "".join(c for c in text if c in " -" or unicodedata.category(c)[0] in "LNM")
    return kept.replace(" ", "-")


def anchors(page: Path) -> set[str]:
    """The anchors of a Markdown page's headings (a repeated heading gets -1, -2...)."""
    seen: dict[str, int] = {}
    out = set()
    for m in re.finditer(r"^#{1,6}\s+(.+?)\s*#*\s*$", FENCE.sub("", page.read_text("utf-8")), re.M):
        s = slug(m.group(1))
        n = seen.get(s, 0)
        seen[s] = n + 1
        out.add(s if n == 0 else f"{s}-{n}")
    return out


def name(page: Path) -> str:
    return str(page.relative_to(ROOT))


def test_the_pages_are_there() -> None:
    assert (ROOT / "README.md").exists()
    assert len(PAGES) > 5, "the guide's pages under docs/"


@pytest.mark.parametrize("page", PAGES, ids=name)
def test_every_link_resolves_in_the_repository(page: Path) -> None:
    bad = []
    for target in links(page.read_text("utf-8")):
        if SCHEME.match(target):
            host = re.sub(r"^[a-z]+://([^/:]+).*$", r"\1", target, flags=re.I).lower()
            if host not in EXTERNAL:
                bad.append(f"{target}: leaves the repository")
            continue
        path, _, anchor = target.partition("#")
        where = page if not path else (page.parent / path)
        if path.startswith("/"):
            bad.append(f"{target}: an absolute path")
            continue
        resolved = where.resolve()
        if not resolved.is_relative_to(ROOT.resolve()):
            bad.append(f"{target}: outside the repository")
        elif not where.exists():
            bad.append(f"{target}: no such file")
        elif anchor and where.suffix == ".md" and anchor.lower() not in anchors(where):
            bad.append(f"{target}: no heading {anchor!r} in {where.name}")
    assert bad == [], f"{name(page)}: " + "; ".join(bad)


def test_the_readme_is_read_in_ten_minutes() -> None:
    lines = (ROOT / "README.md").read_text("utf-8").splitlines()
    assert len(lines) <= README_LINES, f"README.md has {len(lines)} lines, at most {README_LINES}"


@pytest.mark.parametrize("page", PAGES, ids=name)
def test_no_page_keeps_a_diary(page: Path) -> None:
    found = [
        f"line {n}: {m.group(0)!r}"
        for n, line in enumerate(page.read_text("utf-8").splitlines(), 1)
        for m in DIARY.finditer(line)
    ]
    assert found == [], f"{name(page)}: history belongs in CHANGELOG.md: " + "; ".join(found)


def test_the_docs_pages_are_linked_from_the_readme() -> None:
    readme = {t.partition("#")[0] for t in links((ROOT / "README.md").read_text("utf-8"))}
    missing = [name(p) for p in PAGES[1:] if name(p) not in readme]
    assert missing == [], f"pages the README does not lead to: {missing}"


def test_the_checks_themselves() -> None:
    text = (
        "See [the console](docs/console.md#the-console) and ![a map](docs/console.png).\n"
        "`[not a link](nowhere.md)` and\n```sh\n[nor this](x.md)\n```\n"
        '[ref]: docs/cli.md "the reference"\n<img src="docs/team.png"> https://example.org/x\n'
    )
    assert links(text) == [
        "docs/console.md#the-console",
        "docs/console.png",
        "docs/cli.md",
        "docs/team.png",
        "https://example.org/x",
    ]
    assert slug("The file and its log, paired") == "the-file-and-its-log-paired"
    assert slug("Rules as data, and house rules") == "rules-as-data-and-house-rules"
    assert slug("The tactical rule set (seed 003)") == "the-tactical-rule-set-seed-003"
    assert slug("`strategia serve`: a screen a team") == "strategia-serve-a-screen-a-team"
    for said in ("issue 25", "Issue 16's targets", "(issue 28)", "issues #3", "this branch"):
        assert DIARY.search(said), said
    for said in ("the issue of orders", "a wave of 3 attacks", "branch 2 of the river"):
        assert not DIARY.search(said), said
