"""Start-up: nothing touches the hash table before a search writes to it, and serving the
protocol imports no module that only `--help`, `option book` or the weight commands need.
docs/performance.md ("Start-up") measures the time and memory these save."""
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


@needs_core
@needs_proc
def test_a_hash_table_no_search_has_written_is_never_touched():
    """A 512 MB table (and the 64 MB one start-up sets up before it) is the OS's zero pages
    until a search writes there: no explicit clear at start, on `option hash` or on a new game,
    so neither start-up nor the first genmove's clock pays for clearing it."""
    engine = EngineClient()
    try:
        engine.ok("option hash 512")
        engine.ok("clear_board")  # a new game clears the table: one never written needs nothing
        engine.ok("weights set dvonn.search_lmp 2")  # as does a changed weight
        assert peak_mb(engine.child.proc.pid) < 128
    finally:
        engine.close()


def test_serving_the_protocol_imports_no_module_it_does_not_need_yet():
    done = subprocess.run([sys.executable, "-X", "importtime", "-m", "engine"], input="quit\n",
                          capture_output=True, text=True, cwd=REPO, timeout=120)
    assert done.returncode == 0 and done.stdout == "=\n\n"
    imported = set(re.findall(r"\|\s*(engine[\w.]*)\s*$", done.stderr, re.M))
    assert "engine.protocol.server" in imported  # the list holds the engine's own imports
    assert imported.isdisjoint({"engine.examples", "engine.book", "engine.evaluation"}), imported
