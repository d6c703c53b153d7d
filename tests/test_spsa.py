"""scripts/spsa: nevergrad's SPSA on a match whose best θ is known, fishtest's units, the weights
file through the engine's `weights load`, a tiny real run, and bad rows."""
from __future__ import annotations

import math
import random
import subprocess
import sys

import pytest
from conftest import REPO

from engine.tools import spsa, stats

pytest.importorskip("nevergrad", reason="nevergrad is not installed (pip install '.[spsa]')")

ROWS = ["search_lmr_base:40:0:300:10", "dvonn.search_rfp:150:0:300:10",
        "dvonn.search_lmp:5:0:10:1"]
BEST = [120.0, 60.0, 3.0]


def fake_match(seed: int):
    """θ+'s points minus θ-'s in a colour-swapped pair, each game won with the logistic
    Elo model's probability; a side's strength falls with its squared distance from BEST."""
    rng = random.Random(seed)

    def strength(values):
        return -400 * ((values[0] - 120) / 100) ** 2 - 400 * ((values[1] - 60) / 100) ** 2 \
            - 40 * (values[2] - 3) ** 2

    def play(iteration, plus, minus):
        p = stats.expected_score(strength(plus) - strength(minus))
        return sum(1 if rng.random() < p else -1 for _ in range(2))
    return play


def scaled_distance(values) -> float:
    return math.dist([values[0] / 10, values[1] / 10, values[2]], [b / s for b, s in zip(BEST, (10, 10, 1))])


@pytest.mark.parametrize("seed", [1, 2])
def test_the_tuner_moves_towards_the_best_values_of_a_known_match(seed):
    params = [spsa.parse_row(row, "dvonn") for row in ROWS]
    tuner = spsa.Spsa(params, 300, 0.05, seed)
    spsa.run(tuner, 300, fake_match(seed))
    tuner.ask_pair()
    start = scaled_distance([p.start for p in params])   # 12.2 steps of C_END away
    assert scaled_distance(tuner.centre_values()) < 0.4 * start  # 0.16 to 0.28 for seeds 1..8


def test_a_step_is_fishtests_r_end_times_c_end_times_the_result():
    params = [spsa.parse_row(row, "dvonn") for row in ROWS]
    tuner = spsa.Spsa(params, 1, 0.01, 7)
    plus, minus = tuner.ask_pair()
    assert [abs(a - b) for a, b in zip(plus, minus)] == pytest.approx([20, 20, 2])  # 2 C_END
    tuner.tell_result(2.0)  # θ+ won both games
    tuner.ask_pair()
    moved = [c - p.start for c, p in zip(tuner.centre_values(), params)]
    signs = [math.copysign(1, a - b) for a, b in zip(plus, minus)]
    assert moved == pytest.approx([0.01 * p.c_end * 2 * s for p, s in zip(params, signs)])


def test_engine_values_are_whole_numbers_within_the_range():
    param = spsa.parse_row("dvonn.search_lmp:3:0:10:1", "dvonn")
    assert [param.engine_value(v) for v in (-3.2, 2.5, 3.5, 7.49, 12)] == [0, 2, 4, 7, 10]


def test_the_weights_file_loads_into_the_engine(engine, tmp_path):
    params = [spsa.parse_row(row, "dvonn") for row in ROWS]
    tuner = spsa.Spsa(params, 100, 0.05, 3)
    spsa.run(tuner, 100, fake_match(3))
    tuner.ask_pair()
    path = tmp_path / "tuned.txt"
    path.write_text(spsa.weights_text(tuner, 100, "test"))
    wanted = {p.name: p.engine_value(v) for p, v in zip(params, tuner.centre_values())}
    assert wanted != {p.name: p.start for p in params}
    assert engine.ok(f"weights load {path}") == "3"
    listed = dict(line.split("  #")[0].split() for line in engine.ok("weights").splitlines())
    assert {name: int(listed[name]) for name in wanted} == wanted


def run_spsa(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "scripts/spsa", *args], cwd=REPO,
                          capture_output=True, text=True, timeout=120)


def test_a_tiny_real_run_writes_a_weights_file(tmp_path):
    out = tmp_path / "tuned.txt"
    result = run_spsa("--game", "dvonn", "--iterations", "2", "--nodes", "300", "--out", str(out),
                      "dvonn.search_lmp:3:0:10:1", "search_lmr_base:100:0:300:20")
    assert result.returncode == 0, result.stderr
    assert "iteration 2/2: θ+ [" in result.stderr
    rows = [line.split("#")[0].split() for line in out.read_text().splitlines()
            if not line.startswith("#")]
    assert [name for name, _ in rows] == ["dvonn.search_lmp", "dvonn.search_lmr_base"]
    assert 0 <= int(rows[0][1]) <= 10 and 0 <= int(rows[1][1]) <= 300


@pytest.mark.parametrize("row, message", [
    ("search_lmp:3:0:10", "expected NAME:START:MIN:MAX:C_END"),
    ("search_lmp:x:0:10:1", "are numbers"),
    ("search_lmp:11:0:10:1", "MIN <= START <= MAX"),
    ("search_lmp:3:0:10:0", "C_END must be positive"),
    ("tzaar.search_lmp:3:0:10:1", "is not a dvonn weight"),
])
def test_a_bad_row_is_one_clear_line_and_status_1(row, message, tmp_path, capsys):
    assert spsa.main(["--game", "dvonn", "--out", str(tmp_path / "x.txt"), row]) == 1
    err = capsys.readouterr().err
    assert message in err and err.count("\n") == 1
    assert not (tmp_path / "x.txt").exists()


def test_an_unknown_weight_stops_the_run_with_the_engines_reason(tmp_path):
    result = run_spsa("--game", "dvonn", "--iterations", "1", "--nodes", "300",
                      "--out", str(tmp_path / "x.txt"), "dvonn.no_such:3:0:10:1")
    assert result.returncode == 1
    assert "unknown dvonn weight 'no_such'" in result.stderr
    assert result.stderr.count("\n") == 1 and "Traceback" not in result.stderr
