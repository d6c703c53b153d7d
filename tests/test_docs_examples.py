"""The worked examples in docs/ run as written: each `$ gipf-...` command of docs/tools.md, in
order, in one folder, with the gipf-* commands of this checkout; every one must succeed.

Outputs that depend on timing or on searches are not compared; the engine's own example is
deterministic and must match exactly.  Examples that need the real records of ../shared skip
where it is absent; the LittleGolem dry run needs a site (tests/test_littlegolem.py runs it
against a stand-in) and the GUI a browser (tests/test_gui_browser.py)."""
from __future__ import annotations

import os
import re
import shutil
import stat
import subprocess
import sys
import tomllib

import pytest
from conftest import REPO, SHARED

DOC = REPO / "docs" / "tools.md"
RECORD = SHARED / "records" / "littlegolem" / "game2552914.txt"
NOT_HERE = ("gipf-littlegolem", "gipf-gui")


def examples(text: str) -> list[tuple[str, str]]:
    """(command, the output shown after it) for every `$ ` line in the document's code blocks,
    continuation lines joined."""
    found: list[tuple[str, list[str]]] = []
    in_block = False
    shown: list[str] = []  # the output lines of the block's last command
    lines = iter(text.split("\n"))
    for line in lines:
        if line.startswith("```"):
            in_block, shown = not in_block, []
            continue
        if not in_block:
            continue
        if line.startswith("$ "):
            command = line[2:]
            while command.endswith("\\"):
                command = command[:-1] + " " + next(lines).strip()
            shown = []
            found.append((re.sub(r"\s+#.*$", "", command), shown))
        else:
            shown.append(line)
    return [(command, "\n".join(shown)) for command, shown in found]


def commands_folder(tmp_path):
    """A folder of gipf-* commands running this checkout, as `pip install` would make them."""
    folder = tmp_path / "bin"
    folder.mkdir()
    scripts = tomllib.loads((REPO / "pyproject.toml").read_text())["project"]["scripts"]
    for name, target in scripts.items():
        module = target.split(":")[0]
        module = "engine" if module == "engine.__main__" else module
        path = folder / name
        path.write_text(f'#!/bin/sh\nexec {sys.executable} -m {module} "$@"\n')
        path.chmod(path.stat().st_mode | stat.S_IXUSR)
    return folder


ALL = examples(DOC.read_text(encoding="utf-8"))


def test_the_document_has_an_example_for_every_tool():
    scripts = tomllib.loads((REPO / "pyproject.toml").read_text())["project"]["scripts"]
    used = {word for command, _ in ALL for word in re.findall(r"gipf-[a-z-]+", command)}
    assert set(scripts) - set(NOT_HERE) <= used, sorted(set(scripts) - set(NOT_HERE) - used)


def test_every_example_runs_as_written(tmp_path):
    work = tmp_path / "work"
    work.mkdir()
    env = dict(os.environ, PATH=f"{commands_folder(tmp_path)}{os.pathsep}{os.environ['PATH']}",
               PYTHONPATH=os.pathsep.join(filter(None, [str(REPO), os.environ.get("PYTHONPATH")])))
    have_records = RECORD.is_file()
    if have_records:  # the review and bridge examples' records
        shutil.copy(RECORD, work / RECORD.name)
        cut = subprocess.run([sys.executable, "-m", "engine"], input=f"loadrecord {RECORD} 10\nprintrecord\n",
                             capture_output=True, text=True, cwd=REPO, timeout=60).stdout
        reply = cut.split("\n\n")[1]
        assert reply.startswith("= ")
        (work / "tzaar-10.sgf").write_text(reply[2:] + "\n")
    (work / "tests").symlink_to(REPO / "tests")  # gipf-regress tests/regress/...
    ran = 0
    for command, shown in ALL:
        if command.split()[0] in NOT_HERE:
            continue
        if not have_records and ("tzaar-10.sgf" in command or RECORD.name in command):
            continue
        done = subprocess.run(["bash", "-o", "pipefail", "-c", command], cwd=work, env=env,
                              capture_output=True, text=True, timeout=300)
        expected_failure = shown.startswith("bridge: the game is over")
        assert (done.returncode == 1) if expected_failure else (done.returncode == 0), \
            f"{command!r} exited {done.returncode}: {done.stderr[-1500:]}"
        if command.endswith("| gipf-engine"):  # deterministic
            assert done.stdout.rstrip("\n") == shown.rstrip("\n")
        ran += 1
    assert ran >= (20 if have_records else 17)
    if not have_records:
        pytest.skip(f"{RECORD} is absent: the review and bridge examples were not run")
