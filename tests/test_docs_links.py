"""Every relative link in the project's Markdown (README, model card, docs/) names a file that is
there and, when it has one, an anchor that one of that file's headings makes: a section moved
from the README to docs/ must not leave a link to nowhere behind."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parent.parent
DOCS = [REPO / "README.md", REPO / "models" / "README.md", *sorted((REPO / "docs").glob("*.md"))]
LINK = re.compile(r"\]\(([^)\s]+)\)")
FENCE = re.compile(r"^```.*?^```", re.S | re.M)


def slugs(markdown: str) -> set[str]:
    """The anchors GitHub gives a file's headings: lower case, punctuation but hyphens dropped,
    spaces as hyphens, a repeated heading's anchor numbered -1, -2 ..."""
    seen: dict[str, int] = {}
    out = set()
    for line in FENCE.sub("", markdown).splitlines():
        m = re.match(r"#{1,6}\s+(.*?)\s*#*\s*$", line)
        if not m:
            continue
        text = re.sub(r"[`*_]|\[([^\]]*)\]\([^)]*\)", lambda g: g.group(1) or "", m.group(1))
        slug = re.sub(r"[^\w\- ]", "", text.lower()).replace(" ", "-")
        n = seen.get(slug, 0)
        seen[slug] = n + 1
        out.add(slug if n == 0 else f"{slug}-{n}")
    return out


def links(path: Path) -> list[str]:
    return [t for t in LINK.findall(FENCE.sub("", path.read_text(encoding="utf-8")))
            if not re.match(r"[a-z]+:", t)]


def test_slugs_follow_github():
    text = "# Tile classifier\n## Recognising a photo (vision), 2026-11-27 (eighteenth session)\n" \
           "## Not there yet\n### Not there yet\n```\n# not a heading\n```\n"
    assert slugs(text) == {"tile-classifier", "recognising-a-photo-vision-2026-11-27-eighteenth-session",
                           "not-there-yet", "not-there-yet-1"}


@pytest.mark.parametrize("doc", DOCS, ids=lambda p: str(p.relative_to(REPO)))
def test_relative_links_resolve(doc: Path):
    broken = []
    for target in links(doc):
        name, _, anchor = target.partition("#")
        dest = (doc.parent / name).resolve() if name else doc
        if not dest.exists():
            broken.append(f"{target}: no such file")
        elif anchor and dest.suffix == ".md" and anchor not in slugs(dest.read_text(encoding="utf-8")):
            broken.append(f"{target}: no heading makes #{anchor}")
    assert not broken, f"{doc.relative_to(REPO)}: " + "; ".join(broken)
