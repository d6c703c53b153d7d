"""From self-play data to a network in a game, at a tiny scale: gipf-selfplay writes a few hundred
positions, the trainer fits and exports a network, the engine loads it and plays a legal game."""
from __future__ import annotations

import subprocess
import sys

import pytest
from conftest import REPO

from engine import core, network
from engine.games.dvonn.rules import DvonnGame

pytestmark = pytest.mark.skipif(not core.AVAILABLE, reason=core.UNAVAILABLE_REASON or "no core")


def tool(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", *args], cwd=REPO, capture_output=True, text=True,
                          timeout=600)


def test_selfplay_data_trains_a_network_that_loads_and_plays(tmp_path, engine):
    pytest.importorskip("torch", reason="the train extra (PyTorch) is not installed")
    pytest.importorskip("tqdm", reason="the train extra (tqdm) is not installed")
    data = tmp_path / "sp.jsonl"
    made = tool("engine.tools.selfplay", "--game", "dvonn", "--games", "6", "--nodes", "300",
                "--seed", "3", "--out", str(data))
    assert made.returncode == 0, made.stderr
    net = tmp_path / "net.nnue"
    checkpoint = tmp_path / "state.pt"
    first = tool("engine.tools.train", str(data), "--out", str(net), "--epochs", "1",
                 "--checkpoint", str(checkpoint), "--holdout", "0.34")
    assert first.returncode == 0, first.stderr
    assert "held-out error of the linear evaluation" in first.stderr
    assert "epoch 1/1: training error" in first.stderr
    again = tool("engine.tools.train", str(data), "--out", str(net), "--epochs", "2", "--added",
                 "--checkpoint", str(checkpoint), "--holdout", "0.34")
    assert again.returncode == 0, again.stderr
    assert "epoch 1/2" not in again.stderr and "epoch 2/2: training error" in again.stderr  # resumed
    assert network.parse(net.read_bytes()).mode == 2
    assert engine.ok(f"weights load {net}").startswith("network net.nnue ")
    engine.ok("newgame dvonn")
    engine.ok("option nodes 500")
    game = DvonnGame()
    while not game.over:
        reply = engine.ok(f"genmove {'w' if game.side == 0 else 'b'}")
        game.play_text(reply)  # the rules layer refuses an illegal move
    assert game.over and game.ply > 60


def test_the_trainer_names_a_missing_extra_or_bad_arguments(tmp_path):
    bad = tool("engine.tools.train", "nothing.jsonl", "--out", str(tmp_path / "n"), "--lam", "2")
    assert bad.returncode == 2
    assert "--lam in [0, 1]" in bad.stderr
