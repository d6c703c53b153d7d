"""Start-up: nothing touches the hash table before a search writes to it (`option hash` makes
it resident at once, outside any clock), and serving the protocol imports no module that only
`--help`, `option book` or the weight commands need.  docs/performance.md ("Start-up")
measures the time and memory these save."""
from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import pytest
from conftest import REPO, EngineClient

from engine import core

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
