"""The documents stay honest: README is short and about the product, every relative link
lands on a file (and heading) that exists, and README's example replays against the engine."""
from __future__ import annotations

import re
from pathlib import Path

import pytest
from conftest import REPO

README = REPO / "README.md"
OWN_DOCS = [README, REPO / "docs" / "strength.md", REPO / "docs" / "performance.md",
            REPO / "docs" / "architecture.md"]
TOOLS = ["gipf-engine", "gipf-gui", "gipf-match", "gipf-review", "gipf-bridge", "gipf-littlegolem",
         "gipf-codecup", "gipf-codecup-referee", "gipf-regress", "gipf-selfplay", "gipf-tune", "gipf-decisions",
         "gipf-spsa", "gipf-book", "gipf-bench", "gipf-bench-live",
         "gipf-bench-protocol", "gipf-bench-solver", "gipf-clock-profile"]
# Pages other parts of the project write; README links to them. Each is checked like any other
# page (file, headings, its own links) as soon as it exists in the tree.
PAGES_WRITTEN_ALONGSIDE = {"docs/tools.md", "docs/gui.md", "docs/levels.md", "docs/littlegolem.md"}

# Words about how the work was organised, not about the product.
WORK_WORDS = [
    (r"\bload average", "load average"),
    (r"\bstopped\b", "stopped"),
    (r"/tmp/", "a /tmp path"),
    (r"/work/", "a scratch path"),
    (r"\bissue\s*#?\s*\d+|\bissue #", "an issue number"),
    (r"\bitem\s+\d+", "an item number"),
    (r"\b(this|last|next|third|fourth) session\b", "a working session"),
    (r"\bhelpers?\b", "helpers"),
    (r"\bworktree|\bscratch (branch|folder|copy|script)", "scratch work"),
]
README_ONLY_WORDS = [
    (r"\bsessions?\b", "session"),
    (r"\bbranch(es)?\b", "a branch"),
    (r"\b(?=[0-9a-f]*[0-9])(?=[0-9a-f]*[a-f])[0-9a-f]{7,40}\b", "a commit hash"),
]

LINK = re.compile(r"!?\[(?:[^\]\\]|\\.)*\]\(([^)\s]+)(?:\s+\"[^\"]*\")?\)")
FENCE = re.compile(r"^(```|~~~).*?^\1", re.S | re.M)


def prose(text: str) -> str:
    """The text without its fenced code blocks (links there are not links)."""
    return FENCE.sub("", text)


def slug(heading: str) -> str:
    """GitHub's anchor for a heading: lower case, punctuation dropped, spaces to hyphens."""
    text = re.sub(r"[`*]|\[([^\]]*)\]\([^)]*\)", lambda m: m.group(1) or "", heading.strip())
    text = re.sub(r"[^\w\- ]", "", text.lower())
    return text.replace(" ", "-")


def anchors(path: Path) -> set[str]:
    seen: dict[str, int] = {}
    found = set()
    for line in prose(path.read_text(encoding="utf-8")).splitlines():
        match = re.match(r"#{1,6}\s+(.*?)\s*#*\s*$", line)
        if not match:
            continue
        base = slug(match.group(1))
        count = seen.get(base, 0)
        seen[base] = count + 1
        found.add(base if count == 0 else f"{base}-{count}")
    return found


def pages() -> list[Path]:
    return [README, *sorted((REPO / "docs").glob("*.md"))]


def test_readme_is_at_most_250_lines():
    lines = README.read_text(encoding="utf-8").splitlines()
    assert len(lines) <= 250, f"README.md has {len(lines)} lines"


@pytest.mark.parametrize("path", OWN_DOCS, ids=lambda p: p.name)
def test_documents_say_nothing_about_how_the_work_was_organised(path):
    text = path.read_text(encoding="utf-8")
    words = WORK_WORDS + (README_ONLY_WORDS if path == README else [])
    found = [f"{what}: {m.group(0)!r}" for pattern, what in words
             for m in re.finditer(pattern, text, re.I)]
    assert not found, f"{path.name}: " + "; ".join(found)


def test_the_word_checks_can_fail():
    """The patterns catch what they are meant to catch."""
    samples = ["load average 4", "stopped at the deadline", "see /tmp/x", "issue 7", "issue #3",
               "item 4", "this session", "a helper built it", "the scratch branch"]
    for sample in samples:
        assert any(re.search(p, sample, re.I) for p, _ in WORK_WORDS), sample
    assert re.search(README_ONLY_WORDS[2][0], "main at 3239e40")
    assert not re.search(README_ONLY_WORDS[2][0], "accepted deadbeef 1234567")


@pytest.mark.parametrize("path", pages(), ids=lambda p: p.name)
def test_every_relative_link_lands(path):
    bad = []
    for target in LINK.findall(prose(path.read_text(encoding="utf-8"))):
        if re.match(r"[a-z][a-z0-9+.-]*:", target):  # https:, mailto:: not checked here
            continue
        file_part, _, anchor = target.partition("#")
        dest = (path.parent / file_part).resolve() if file_part else path
        rel = dest.relative_to(REPO).as_posix() if dest.is_relative_to(REPO) else str(dest)
        if not dest.exists():
            if rel in PAGES_WRITTEN_ALONGSIDE:
                if rel == "docs/tools.md" and anchor and anchor not in TOOLS:
                    bad.append(f"{target}: not a tool's anchor")
                continue
            bad.append(f"{target}: no such file")
        elif anchor and dest.suffix == ".md" and anchor not in anchors(dest):
            bad.append(f"{target}: no heading with that anchor in {rel}")
    assert not bad, f"{path.name}: " + "; ".join(bad)


def test_slugs_follow_github():
    assert slug("2026-12-01 TZAAR: why the stack table's weights need more nodes") == \
        "2026-12-01-tzaar-why-the-stack-tables-weights-need-more-nodes"
    assert slug("6.7 `analyze live [<interval_ms>]`") == "67-analyze-live-interval_ms"
    assert slug("Strength") == "strength"


def test_readme_lists_every_tool_with_its_anchor():
    text = README.read_text(encoding="utf-8")
    for tool in TOOLS:
        assert f"[`{tool}`](docs/tools.md#{tool})" in text, tool
