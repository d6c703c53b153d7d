"""The documents describe the tree as it is: every file or folder docs/architecture.md names in
code type exists, README's strength table quotes docs/strength.md's latest rows, and CI sets up
and runs the suite with README's own steps."""
from __future__ import annotations

import re
from pathlib import Path

import pytest
from conftest import REPO

ARCHITECTURE = REPO / "docs" / "architecture.md"
TOP = ("engine/", "csrc/", "tests/", "scripts/", "docs/", ".ci/")
SUFFIXES = (".py", ".h", ".c", ".inc", ".md", ".tst", ".js", ".toml", ".txt")
CODE = re.compile(r"`([^`\n]+)`")
GAMES = ("dvonn", "tzaar")


def named_paths(text: str) -> list[str]:
    """The words in code type that name a file or folder: those under a top folder of the tree,
    and file names with a source suffix (relative to the tree, to engine/, or anywhere in it)."""
    found = []
    for span in CODE.findall(text):
        for word in span.split():
            word = word.strip(",;:()")
            if "*" in word or "…" in word or "=" in word or "[" in word or \
                    (word.startswith(".") and "/" not in word):  # a pattern, a command's words, a suffix
                continue
            if word.startswith(TOP) or word.endswith(SUFFIXES):
                found.append(word)
    return found


def exists(path: str, root: Path = REPO) -> bool:
    """Whether the path names something in the tree; `<game>` stands for any built-in game."""
    if "<game>" in path:
        return any(exists(path.replace("<game>", game), root) for game in GAMES)
    if "/" not in path.rstrip("/") and not (root / path).exists():  # a bare name: anywhere in the tree
        return any(next((root / top).rglob(path.rstrip("/")), None) for top in TOP)
    # a module may be named without its .py: engine/records/base
    return any((base / name).exists() for base in (root, root / "engine") for name in (path, path + ".py"))


def test_the_path_reader_finds_paths_and_leaves_other_code_words():
    text = ("`engine/registry.py` `scripts/sanitize [pytest args…]` `csrc/<game>/<game>_eval.h` "
            "`codec.py`, `protocol/gtp.py` `SPECS` `<p>_gen` `engine.core.weights` `csrc/*/*.c` `.tst`")
    assert named_paths(text) == ["engine/registry.py", "scripts/sanitize", "csrc/<game>/<game>_eval.h",
                                 "codec.py", "protocol/gtp.py"]


@pytest.mark.parametrize("path, found", [
    ("engine/registry.py", True), ("protocol/gtp.py", True), ("csrc/<game>/<game>_eval.h", True),
    ("codec.py", True), ("engine/games/<game>/", True), ("engine/records/base", True), ("csrc/generated/", False),
    ("engine/games/dvonn/network.py", False), ("games/<game>/gui.py", False), ("no_such_file.py", False),
])
def test_the_path_check_can_fail(path, found):
    assert exists(path) is found


def test_architecture_names_only_paths_that_exist():
    text = ARCHITECTURE.read_text(encoding="utf-8")
    paths = named_paths(text)
    assert len(paths) > 40, "the document names the tree's parts"
    assert [path for path in paths if not exists(path)] == []


def table_rows(text: str, header: str) -> list[list[str]]:
    """The rows of every table whose header line is `header`, each as its cells."""
    rows, inside = [], False
    for line in text.splitlines():
        if line.strip() == header:
            inside = True
            continue
        if inside and line.startswith("|"):
            if not line.startswith("|---"):
                rows.append([cell.strip() for cell in line.strip().strip("|").split("|")])
        else:
            inside = False
    return rows


STRENGTH_HEADER = "| game | opponent | time | games | score | rerun |"


def latest_strength_rows(text: str) -> list[list[str]]:
    """The rows of the last dated section of docs/strength.md with a table against other programs."""
    sections = re.split(r"\n(?=## )", text)
    with_table = [section for section in sections if table_rows(section, STRENGTH_HEADER)]
    return table_rows(with_table[-1], STRENGTH_HEADER) if with_table else []


def test_the_table_reader_reads_the_last_section_only():
    doc = (f"## 2026-01-01 old\n\n{STRENGTH_HEADER}\n|---|\n| DVONN | X | 5 s | 10 | 80 % | `c` |\n\n"
           f"## 2026-01-02 new\n\n{STRENGTH_HEADER}\n|---|\n| DVONN | X | 5 s | 10 | 90 % | `c` |\n\ntext\n")
    assert latest_strength_rows(doc) == [["DVONN", "X", "5 s", "10", "90 %", "`c`"]]


def test_readme_quotes_the_latest_strength_rows_with_their_commands():
    readme = (REPO / "README.md").read_text(encoding="utf-8")
    strength = (REPO / "docs" / "strength.md").read_text(encoding="utf-8")
    latest = latest_strength_rows(strength)
    assert latest and all(row[5] for row in latest), "each row says how it is rerun"
    assert table_rows(readme, STRENGTH_HEADER) == latest


def command_lines(text: str) -> list[str]:
    """A shell text's command lines, without comments and blank lines."""
    return [line.split("  #")[0].strip() for line in text.splitlines()
            if line.strip() and not line.lstrip().startswith("#")]


def readme_set_up() -> tuple[list[str], str]:
    """README's venv steps (the first block of "Install and run") and its test command."""
    readme = (REPO / "README.md").read_text(encoding="utf-8")
    section = readme.split("## Install and run", 1)[1].split("\n## ", 1)[0]
    blocks = re.findall(r"```\n(.*?)```", section, flags=re.S)
    tests = [line for line in command_lines(blocks[1]) if line.endswith("python3 -m pytest")]
    assert len(tests) == 1, "README shows one test command"
    return command_lines(blocks[0]), tests[0]


def in_order(wanted: list[str], lines: list[str]) -> bool:
    rest = iter(lines)
    return all(any(line == want for line in rest) for want in wanted)


def test_ci_sets_up_and_tests_as_readme_does():
    steps, test_command = readme_set_up()
    assert steps[0] == "python3 -m venv .venv" and steps[1] == "source .venv/bin/activate"
    ci = command_lines((REPO / ".ci" / "run").read_text(encoding="utf-8"))
    assert in_order(steps + [test_command], ci), (steps, test_command)
    assert in_order(["export GIPF_REQUIRE_CORE=1", steps[0], "ruff check .", "mypy", test_command], ci)
    assert not in_order([test_command, steps[0]], ci)
    assert not in_order(["python3 -m venv .venv"], ["python3 -m pip install -e ."])  # the check can fail
