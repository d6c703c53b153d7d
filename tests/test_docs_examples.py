"""The worked examples of docs/tools.md run as written: each `$ gipf-...` command, in order, in one
empty folder, with the gipf-* commands of this checkout, and what each prints (stdout, then
stderr) is compared line by line with what the document shows; only what the document marks with
`…` (the clock's and the machine's share) is not compared (tests/doc_replay.py). The example
records are the ones that ship with the engine. The LittleGolem dry run needs a site
(tests/test_littlegolem.py runs it against a stand-in) and the GUI a browser
(tests/test_gui_browser.py)."""
from __future__ import annotations

import os
import re
import stat
import subprocess
import sys
import tomllib

from conftest import REPO
from doc_replay import COMPARED, matches

DOC = REPO / "docs" / "tools.md"
NOT_HERE = ("gipf-littlegolem", "gipf-gui", "gipf-screenshots")  # a site, a server, a browser
# The commands that fail on purpose, with the status they exit with.
FAILING = {"gipf-bridge --movetime 200 game2552914.txt": 1}


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


def test_every_example_prints_what_the_document_shows(tmp_path):
    work = tmp_path / "work"
    work.mkdir()
    env = dict(os.environ, PATH=f"{commands_folder(tmp_path)}{os.pathsep}{os.environ['PATH']}",
               PYTHONPATH=os.pathsep.join(filter(None, [str(REPO), os.environ.get("PYTHONPATH")])))
    ran, differ = 0, []
    for command, shown in ALL:
        if command.split()[0] in NOT_HERE:
            continue
        done = subprocess.run(["bash", "-o", "pipefail", "-c", command], cwd=work, env=env,
                              capture_output=True, text=True, timeout=600)
        assert done.returncode == FAILING.get(command, 0), \
            f"{command!r} exited {done.returncode}: {done.stderr[-1500:]}"
        expected = shown.rstrip("\n").split("\n") if shown.strip() else []
        printed = (done.stdout + done.stderr).rstrip("\n")
        if not matches(expected, printed.split("\n") if printed else []):
            differ.append(f"$ {command}\n--- document:\n{shown.rstrip()}\n--- printed:\n{printed}")
        ran += 1
    assert not differ, f"{len(differ)} examples differ:\n" + "\n".join(differ)
    assert ran >= 20
    COMPARED["docs/tools.md examples"] += ran


def test_every_usage_block_is_the_tools_own():
    """A tool's `usage:` block in the document is what its --help prints (80 columns)."""
    scripts = tomllib.loads((REPO / "pyproject.toml").read_text())["project"]["scripts"]
    text = DOC.read_text(encoding="utf-8")
    differ, compared = [], 0
    for name, target in scripts.items():
        section = text.split(f"### {name}\n", 1)[1].split("\n#", 1)[0]
        block = re.search(r"```\n(usage: .*?)```", section, re.S)
        if block is None:  # a one-line synopsis in the prose instead
            continue
        module = target.split(":")[0]
        done = subprocess.run([sys.executable, "-m", "engine" if module == "engine.__main__" else module,
                               "--help"], capture_output=True, text=True, cwd=REPO, timeout=60,
                              env=dict(os.environ, COLUMNS="80"))
        usage = done.stdout.split("\n\n", 1)[0].strip()
        if block.group(1).strip() != usage:
            differ.append(f"{name}:\n{block.group(1)}--- --help says:\n{usage}")
        compared += 1
    assert not differ, "\n".join(differ)
    assert compared >= 15
    COMPARED["docs/tools.md usage blocks"] += compared


def test_the_shipped_example_records_are_listed_and_load():
    """Every shipped record is named, with its source, in the folder's README and loads as it
    says: played out or resigned, or refused at its one illegal move."""
    from engine.examples import EXAMPLES, example_records
    from engine.games import GAMES
    readme = (EXAMPLES / "README.md").read_text(encoding="utf-8")
    records = sorted(p.name for p in EXAMPLES.iterdir() if p.name != "README.md")
    assert set(example_records()) == set(GAMES)  # every built-in game has one
    assert len(records) >= 6 and {p.name for p in example_records().values()} <= set(records)
    script = "".join(f"loadrecord {name}\n" for name in records) + "quit\n"
    done = subprocess.run([sys.executable, "-m", "engine"], input=script, capture_output=True,
                          text=True, cwd=EXAMPLES, timeout=120)
    for name, reply in zip(records, done.stdout.split("\n\n")):
        row = next(line for line in readme.splitlines() if line.startswith(f"| `{name}` |"))
        assert "littlegolem" in row.lower() or "boardspace" in row.lower(), row
        if "illegal" in row:
            assert reply.startswith("? bad record: move 61 "), (name, reply)
        else:
            assert reply.startswith("= ") and ("game over" in reply or "resigned" in reply), (name, reply)


def test_review_takes_each_games_shipped_example(tmp_path):
    done = subprocess.run([sys.executable, "-m", "engine.tools.review", "--example", "dvonn", "--depth", "1",
                           "--jobs", "1", "--format", "json"], capture_output=True, text=True,
                          cwd=tmp_path, timeout=300, env=dict(os.environ, PYTHONPATH=str(REPO)))
    assert done.returncode == 0, done.stderr[-1500:]
    assert '"moves"' in done.stdout and "CleverHunk" in done.stdout
