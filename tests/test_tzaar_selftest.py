"""The TZAAR C module's own self-test (tests/csrc/tzaar_selftest.c), built with ASan/UBSan.

It checks the bitboard module against a plain point-by-point reference copy of
the rules over random games, the incremental counts and hashes against fresh
recomputation, and known perft figures.
"""
from __future__ import annotations

import shutil
import subprocess

import pytest
from conftest import REPO

from engine.games.tzaar.openings import fixed_opening

CSRC = REPO / "csrc"
SELFTEST = REPO / "tests" / "csrc" / "tzaar_selftest.c"


@pytest.mark.skipif(shutil.which("gcc") is None, reason="gcc is not installed")
def test_tzaar_c_module_selftest_passes(tmp_path):
    binary = tmp_path / "tzaar_selftest"
    subprocess.run(["gcc", "-O1", "-g", "-Wall", "-Wextra", "-Werror", "-std=c11",
                    "-fsanitize=address,undefined", "-fno-sanitize-recover=undefined",
                    "-I", str(CSRC / "core"), "-I", str(CSRC / "tzaar"),
                    *(str(path) for path in sorted((CSRC / "tzaar").glob("tzaar*.c"))
                      if path.name != "tzaar_game.c"),
                    str(SELFTEST), "-o", str(binary)],
                   check=True, capture_output=True, text=True)
    run = subprocess.run([str(binary)], capture_output=True, text=True, timeout=300,
                         env={"ASAN_OPTIONS": "detect_leaks=0",
                              "TZAAR_FIXED_LAYOUT": "".join(fixed_opening())})
    assert run.returncode == 0, run.stdout[-2000:] + run.stderr[-2000:]
    assert "all tests passed" in run.stdout
    assert "FAIL" not in run.stdout
