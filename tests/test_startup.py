"""Start-up: nothing touches the hash table before a search writes to it (`option hash` makes
it resident at once, outside any clock), serving the protocol imports no module that only
`--help`, `option book` or the weight commands need, and a command that needs no game (`quit`,
`name`) is answered before the games, the search, the core or logging are imported.
docs/performance.md ("Start-up") measures the time and memory these save."""
from __future__ import annotations

import io
import os
import re
import subprocess
import sys
import threading
from pathlib import Path

import pytest
from conftest import REPO, EngineClient

from engine import core
from engine.protocol import gtp
from engine.protocol.serving import Quit, Session

needs_core = pytest.mark.skipif(not core.AVAILABLE, reason=core.UNAVAILABLE_REASON or "no core")
needs_proc = pytest.mark.skipif(not Path("/proc/self/status").is_file(), reason="reads /proc")


def peak_mb(pid: int) -> float:
    """The process's peak resident memory so far (VmHWM), in MB."""
    status = Path(f"/proc/{pid}/status").read_text()
    return int(re.search(r"^VmHWM:\s+(\d+) kB", status, re.M).group(1)) / 1024


PEAK = """
import re
import engine.games  # the games registered, as the server has them
from engine import core
core.prepare(256)                         # start-up's warm-up, with a 256 MB table
core.clear_hash()                         # a new game
core.set_weight("dvonn", "search_lmp", 2)  # a changed weight clears the table too
print(int(re.search(r"VmHWM:\\s+(\\d+)", open("/proc/self/status").read()).group(1)) // 1024)
"""


@needs_core
@needs_proc
def test_start_up_leaves_the_hash_table_untouched_until_a_search_writes():
    """Start-up's table is the OS's zero pages: no explicit clear at start, on a new game or a
    changed weight, so a process that never searches never holds it.  (`option hash` makes a
    table resident at once, outside any clock; a search takes the pages it writes.)"""
    done = subprocess.run([sys.executable, "-c", PEAK], capture_output=True, text=True, cwd=REPO,
                          timeout=120)
    assert done.returncode == 0, done.stderr
    assert int(done.stdout) < 128  # MB: the interpreter and the engine's modules, no table


@needs_core
@needs_proc
def test_option_hash_makes_the_table_resident_outside_any_clock():
    """The first genmove after `option hash` pays nothing for its table: the option itself
    touched every page (a search would take them one fault at a time, on its clock)."""
    engine = EngineClient()
    try:
        engine.ok("option hash 256")
        assert peak_mb(engine.child.proc.pid) >= 256
    finally:
        engine.close()


def test_serving_the_protocol_imports_no_module_it_does_not_need_yet():
    done = subprocess.run([sys.executable, "-X", "importtime", "-m", "engine"], input="quit\n",
                          capture_output=True, text=True, cwd=REPO, timeout=120)
    assert done.returncode == 0 and done.stdout == "=\n\n"
    imported = set(re.findall(r"\|\s*(engine[\w.]*)\s*$", done.stderr, re.M))
    assert "engine.protocol.server" in imported  # the list holds the engine's own imports
    assert imported.isdisjoint({"engine.examples", "engine.book", "engine.evaluation"}), imported


# The modules a process has at its exit, beyond those of a bare interpreter (site's own).
MODULES_AT_EXIT = """
import atexit, runpy, sys
bare = set(sys.modules)
atexit.register(lambda: sys.stderr.write("modules: " + " ".join(sorted(set(sys.modules) - bare))))
sys.argv = ["gipf-engine"]
runpy.run_module("engine", run_name="__main__", alter_sys=True)
"""


def modules_after(lines: str, folder: Path) -> tuple[str, set[str]]:
    """The replies to `lines` of `python -m engine` (no arguments), and the modules it imported.
    The lines come from a file: all of them there at once, so the engine never waits for input
    (when it does, it loads the games meanwhile: see the session tests below)."""
    (folder / "input").write_text(lines)
    with open(folder / "input", "rb") as stdin:
        done = subprocess.run([sys.executable, "-c", MODULES_AT_EXIT], stdin=stdin,
                              capture_output=True, text=True, cwd=REPO, timeout=120)
    assert done.returncode == 0, done.stderr
    listed = re.search(r"^modules: (.*)$", done.stderr, re.M)
    assert listed, done.stderr
    return done.stdout, set(listed.group(1).split())


# what no command that needs no game should import: the games and their records, the search
# and the core's bindings (the compiled module alone is loaded at start, to say if it is
# missing), logging (configured when a diagnostic is due), argparse (no arguments to read)
GAME_MODULES = ("engine.registry", "engine.games", "engine.records", "engine.core",
                "engine.search", "engine.ponder", "engine.levels", "engine.protocol.options",
                "logging", "argparse", "dataclasses")


def of_games(modules: set[str]) -> set[str]:
    return {m for m in modules if m in GAME_MODULES or m.startswith(("engine.games.", "engine.records."))}


def test_a_command_that_needs_no_game_imports_no_game_search_core_or_logging(tmp_path):
    out, modules = modules_after("name\nprotocol_version\nlist_commands\nquit\n", tmp_path)
    assert out.startswith("= Gipfbot\n\n= 2\n\n=\nanalyze\n") and out.endswith("\n\n=\n\n")
    assert "engine.protocol.server" in modules  # the list holds what the engine imported
    assert of_games(modules) == set(), of_games(modules)


def test_the_first_command_that_needs_the_game_loads_what_a_search_needs(tmp_path):
    """Imported then, not by the first genmove, whose clock starts when its search does."""
    out, modules = modules_after("play w C5\nquit\n", tmp_path)
    assert out == "= C5\n\n=\n\n"
    assert {"engine.games.dvonn.rules", "engine.core", "engine.search", "engine.ponder",
            "engine.protocol.options"} <= modules


class Recorder:
    """A server that records what the session asks of it."""

    def __init__(self) -> None:
        self.calls: list[str] = []
        self.loaded = threading.Event()

    def load(self) -> None:
        self.calls.append("load")
        self.loaded.set()

    def handle(self, cmd: gtp.Command) -> tuple[bool, str]:
        self.calls.append(cmd.name)
        if cmd.name == "quit":
            raise Quit
        return True, ""


def session_on_a_pipe():
    read_end, write_end = os.pipe()
    server, out = Recorder(), io.StringIO()
    stdin = os.fdopen(read_end, "rb")
    return server, Session(server, stdin, out), stdin, write_end


def test_a_session_whose_input_is_waiting_never_loads_the_games():
    server, session, stdin, write_end = session_on_a_pipe()
    with stdin:
        os.write(write_end, b"name\nquit\n")
        os.close(write_end)
        session.serve()
    assert server.calls == ["name", "quit"]


def test_a_session_waiting_for_input_loads_the_games_meanwhile():
    """So the first genmove a client sends after a pause finds them loaded."""
    server, session, stdin, write_end = session_on_a_pipe()
    with stdin:
        serving = threading.Thread(target=session.serve, daemon=True)
        serving.start()
        assert server.loaded.wait(30)  # nothing to read: the session got the server ready
        os.write(write_end, b"quit\n")
        serving.join(60)
        os.close(write_end)
    assert server.calls == ["load", "quit"]
