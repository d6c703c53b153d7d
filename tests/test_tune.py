"""scripts/selfplay and scripts/tune: the fit on data whose answer is known, and a tiny real run."""
from __future__ import annotations

import json
import subprocess
import sys

import pytest
from conftest import REPO

from engine.tools import tune

np = pytest.importorskip("numpy")
pytest.importorskip("scipy")


def synthetic(seed: int, n: int = 4000):
    rng = np.random.default_rng(seed)
    features = rng.normal(0, 1, (n, 4)) * np.array([3.0, 1.0, 0.5, 2.0])
    true_weights = np.array([40.0, -25.0, 100.0, 30.0])
    return features, true_weights


def test_the_scale_and_the_weights_of_exact_win_probabilities_are_recovered():
    features, true_weights = synthetic(1)
    results = tune.win_probability(np, features @ true_weights, 1.5)
    assert tune.fit_scale(features, true_weights, results) == pytest.approx(1.5, rel=1e-3)
    start = true_weights * np.array([0.5, 2.0, 0.7, 1.5])
    fitted = tune.fit_weights(features, start, results, 1.5)
    assert fitted == pytest.approx(true_weights, rel=1e-2)


def test_game_results_drawn_from_the_model_give_the_weights_back_roughly():
    features, true_weights = synthetic(2, n=20000)
    rng = np.random.default_rng(3)
    p = tune.win_probability(np, features @ true_weights, 1.0)
    results = (rng.random(len(p)) < p).astype(float)
    fitted = tune.fit_weights(features, true_weights * 0.6, results, 1.0)
    assert fitted == pytest.approx(true_weights, rel=0.15)


def test_a_constant_feature_such_as_a_tempo_bonus_is_fitted_with_the_others():
    # A constant column has no spread; it must neither stall the fit nor be the only one moved.
    features, true_weights = synthetic(7, n=4000)
    features[:, 3] = 1.0
    results = tune.win_probability(np, features @ true_weights, 1.0)
    fitted = tune.fit_weights(features, true_weights * np.array([0.5, 2.0, 0.7, 3.0]), results, 1.0)
    assert fitted == pytest.approx(true_weights, rel=2e-2)


def test_weights_outside_the_mask_stay_as_they_were():
    features, true_weights = synthetic(4, n=500)
    results = tune.win_probability(np, features @ true_weights, 1.0)
    start = true_weights + np.array([5.0, 5.0, 5.0, 5.0])
    fitted = tune.fit_weights(features, start, results, 1.0, [True, False, True, False])
    assert fitted[1] == start[1] and fitted[3] == start[3]
    assert fitted[0] != start[0]


def test_the_blend_is_the_results_at_lam_1_and_the_scores_win_probability_at_lam_0():
    results = np.array([1.0, 0.0, 0.5])
    scores = np.array([400.0, -400.0, 0.0])
    assert list(tune.blended_targets(results, scores, 1.0, 1.0)) == [1.0, 0.0, 0.5]
    assert tune.blended_targets(results, scores, 1.0, 0.0) == pytest.approx([10 / 11, 1 / 11, 0.5])
    assert tune.blended_targets(results, scores, 1.0, 0.25) == pytest.approx(
        [0.25 + 0.75 * 10 / 11, 0.75 / 11, 0.5])


def test_fitting_search_scores_alone_recovers_the_weights_behind_them():
    # Scores from known weights with noise, results pure coin flips: at lam 0 the fit
    # follows the scores, not the (uninformative) results.
    features, true_weights = synthetic(5, n=5000)
    rng = np.random.default_rng(6)
    scores = features @ true_weights + rng.normal(0, 20, len(features))
    results = rng.integers(0, 2, len(features)).astype(float)
    targets = tune.blended_targets(results, scores, 1.0, 0.0)
    fitted = tune.fit_weights(features, true_weights * 0.5, targets, 1.0)
    assert fitted == pytest.approx(true_weights, rel=0.1)


def test_a_lam_outside_0_to_1_is_refused():
    run = subprocess.run([sys.executable, str(REPO / "scripts" / "tune"), "--game", "dvonn",
                          "--lam", "1.5", "x.jsonl"], capture_output=True, text=True, timeout=60)
    assert run.returncode == 2 and "--lam must be between 0 and 1" in run.stderr


def test_a_negative_k_is_refused():
    run = subprocess.run([sys.executable, str(REPO / "scripts" / "tune"), "--game", "dvonn",
                          "--k", "-1", "x.jsonl"], capture_output=True, text=True, timeout=60)
    assert run.returncode == 2 and "--k must be positive" in run.stderr


def test_selfplay_then_tune_writes_a_weights_file_the_engine_loads(tmp_path):
    from engine import core
    if not core.AVAILABLE:
        pytest.skip(core.UNAVAILABLE_REASON)
    data, weights = tmp_path / "data.jsonl", tmp_path / "weights.txt"
    subprocess.run([sys.executable, str(REPO / "scripts" / "selfplay"), "--game", "dvonn",
                    "--games", "2", "--nodes", "1500", "--out", str(data)], check=True,
                   capture_output=True, timeout=300)
    rows = [json.loads(line) for line in data.read_text().splitlines()]
    assert len(rows) > 40 and {r["result"] for r in rows} <= {0.0, 0.5, 1.0}
    assert {r["index"] for r in rows} == {0, 1}
    run = subprocess.run([sys.executable, str(REPO / "scripts" / "tune"), "--game", "dvonn",
                          str(data), "--out", str(weights)], capture_output=True, text=True,
                         timeout=300)
    assert run.returncode == 0, run.stderr
    text = weights.read_text()
    assert text.startswith("# scripts/tune: ") and "dvonn.field " in text
    fixed = subprocess.run([sys.executable, str(REPO / "scripts" / "tune"), "--game", "dvonn",
                            "--k", "0.5", "--lam", "0.5", str(data)], capture_output=True, text=True,
                           timeout=300)
    assert fixed.returncode == 0, fixed.stderr
    assert ", K 0.5000, lam 0.5, " in fixed.stdout.splitlines()[0]
    from engine.games.dvonn.rules import DvonnGame
    late = sum(1 for r in rows if (g := DvonnGame.from_position(r["position"])).phase == "placement"
               and g.placed >= 10)
    some = subprocess.run([sys.executable, str(REPO / "scripts" / "tune"), "--game", "dvonn",
                           "--phase", "placement", "--min-occupied", "10", str(data)],
                          capture_output=True, text=True, timeout=300)
    assert some.returncode == 0, some.stderr
    assert some.stdout.startswith(f"# scripts/tune: {late} positions, ")
    split = subprocess.run([sys.executable, str(REPO / "scripts" / "tune"), "--game", "dvonn",
                            "--holdout", "0.5", str(data)], capture_output=True, text=True, timeout=300)
    assert split.returncode == 0, split.stderr
    header = split.stdout.splitlines()[0]
    fitted, held = int(header.split()[2]), int(header.split("held out ")[1].split()[0])
    everything = int(fixed.stdout.split()[2])
    assert "positions of 1 games: " in header and fitted + held == everything and 0 < held < everything
    engine = subprocess.run([sys.executable, "-m", "engine"], input=f"weights load {weights}\nquit\n",
                            capture_output=True, text=True, cwd=REPO, timeout=60)
    assert engine.stdout.startswith(f"= {len(core.eval_weights('dvonn'))}\n")


def test_held_out_positions_are_whole_games_in_the_share_asked():
    import numpy as np
    games = np.repeat(np.arange(50), 7)
    test = tune.held_out_games(games, 0.2)
    assert test.sum() == 10 * 7
    for g in range(50):
        assert len(set(test[games == g])) == 1
    assert (tune.held_out_games(games, 0.2) == test).all()  # the same split every run


def test_tune_refuses_a_bad_data_line_in_one_line(tmp_path):
    bad = tmp_path / "bad.jsonl"
    bad.write_text('{"game": "dvonn", "position": "nonsense", "score": 0, "result": 1}\n')
    run = subprocess.run([sys.executable, str(REPO / "scripts" / "tune"), "--game", "dvonn", str(bad)],
                         capture_output=True, text=True, timeout=60)
    assert run.returncode == 1
    assert run.stderr.strip().startswith(f"tune: {bad}:1: bad line")
    assert "Traceback" not in run.stderr
