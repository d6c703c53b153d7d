"""Games on Ray (pip extra `cluster`): a tiny match and a tiny self-play run, Ray on this machine
with 2 workers.  Skipped when Ray is not installed."""
from __future__ import annotations

import json
import os
import subprocess
import sys

import pytest
from conftest import REPO

pytest.importorskip("ray", reason="Ray is not installed (pip install '.[cluster]')")


def ray_env() -> dict:
    env = {k: v for k, v in os.environ.items() if k != "RAY_ADDRESS"}  # a local Ray, never a cluster
    env["RAY_USAGE_STATS_ENABLED"] = "0"
    return env


def test_a_tiny_match_runs_on_two_ray_workers():
    run = subprocess.run([sys.executable, str(REPO / "scripts" / "match"), "--game", "dvonn",
                          "--games", "2", "--concurrency", "2", "--movetime", "0", "--ray",
                          "--a", "python3 -m engine", "--a-setup", "option nodes 500",
                          "--b", "python3 -m engine", "--b-setup", "option player random"],
                         capture_output=True, text=True, timeout=300, env=ray_env())
    assert run.returncode == 0, run.stderr[-2000:]
    assert "A vs B, dvonn, 2 games: +2 =0 -0" in run.stdout


def test_selfplay_runs_its_games_as_ray_tasks(tmp_path):
    out = tmp_path / "data.jsonl"
    run = subprocess.run([sys.executable, str(REPO / "scripts" / "selfplay"), "--game", "tzaar",
                          "--games", "2", "--nodes", "300", "--ray", "--ray-cpus", "2",
                          "--out", str(out)], capture_output=True, text=True, timeout=300,
                         env=ray_env())
    assert run.returncode == 0, run.stderr[-2000:]
    rows = [json.loads(line) for line in out.read_text().splitlines()]
    assert {r["index"] for r in rows} == {0, 1}
    assert all(r["game"] == "tzaar" and r["result"] in (0.0, 0.5, 1.0) for r in rows)
