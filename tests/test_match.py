"""scripts/match: Elo and SPRT arithmetic, DVONN openings, and a tiny real match."""
from __future__ import annotations

import importlib.util
import math
import subprocess
import sys
from importlib.machinery import SourceFileLoader
from pathlib import Path

import pytest

from engine.dvonn import DvonnGame

REPO = Path(__file__).resolve().parents[1]


def load_script(name: str):
    loader = SourceFileLoader(f"{name}_script", str(REPO / "scripts" / name))
    spec = importlib.util.spec_from_loader(loader.name, loader)
    module = importlib.util.module_from_spec(spec)
    sys.modules[loader.name] = module
    loader.exec_module(module)
    return module


match = load_script("match")


def test_a_clean_sweep_reports_an_exact_one_sided_bound():
    # 100 wins: the win rate is at least 0.05 ** 0.01 = 0.97049 (95 %), i.e. about +607 Elo
    assert round(match.one_sided_bound(100)) == 607
    assert match.elo_text(100, 0, 0).startswith("Elo ≥ +607")
    assert match.elo_text(0, 0, 100).startswith("Elo ≤ -607")
    assert "±" in match.elo_text(60, 10, 30)


def test_expected_score_and_elo():
    assert match.expected_score(0) == 0.5
    assert match.expected_score(400) == pytest.approx(10 / 11)
    assert match.expected_score(-400) == pytest.approx(1 / 11)
    diff, _ = match.elo(0.75, 100, 0)
    assert diff == pytest.approx(400 * math.log10(3))   # 190.85
    diff, error = match.elo(0.5, 100, 0)
    assert diff == pytest.approx(0) and error > 0


def test_sprt_bounds():
    lower, upper = match.sprt_bounds(0.05, 0.05)
    assert (lower, upper) == pytest.approx((-2.944439, 2.944439), abs=1e-6)
    lower, upper = match.sprt_bounds(0.05, 0.10)
    assert (lower, upper) == pytest.approx((math.log(0.10 / 0.95), math.log(0.90 / 0.05)))


def test_sprt_llr_known_values():
    # W 60 D 20 L 20: mean 0.7, per-game variance 0.16; s0 = 0.5, s1 = 1/(1+10^-0.025)
    s1 = 1 / (1 + 10 ** -0.025)
    expected = 100 * (s1 - 0.5) * (1.4 - 0.5 - s1) / 0.32
    assert expected == pytest.approx(1.7337, abs=1e-3)
    assert match.sprt_llr(60, 20, 20, 0, 10) == pytest.approx(expected)
    # an even score favours H0, more so the wider the gap; symmetric results mirror
    assert match.sprt_llr(40, 20, 40, 0, 10) < 0
    assert match.sprt_llr(40, 20, 40, 0, 20) < match.sprt_llr(40, 20, 40, 0, 10)
    assert match.sprt_llr(60, 20, 20, -10, 10) == pytest.approx(-match.sprt_llr(20, 20, 60, -10, 10))
    assert match.sprt_llr(0, 0, 0, 0, 10) == 0
    # a clean sweep has no sample variance: half a pseudo-game of each result stands in
    # (1.5, 0.5, 0.5 over 2.5 games: mean 0.7, variance 0.16)
    s0, s1 = 1 / 11, 0.5
    assert match.sprt_llr(1, 0, 0, -400, 0) == pytest.approx((s1 - s0) * (2 - s0 - s1) / 0.32)
    assert match.sprt_llr(5, 0, 0, 0, 10) > 0 > match.sprt_llr(0, 0, 5, 0, 10)


def test_dvonn_openings_are_reproducible_legal_prefixes():
    openings = match.random_prefixes(DvonnGame, 5, 8, seed=3)
    assert openings == match.random_prefixes(DvonnGame, 5, 8, seed=3)
    assert openings != match.random_prefixes(DvonnGame, 5, 8, seed=4)
    assert len({tuple(o) for o in openings}) == 5
    for opening in openings:
        game = DvonnGame()
        for move in opening:
            game.play_text(move)
        assert game.placed == 8


def run_match(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "scripts/match", *args], cwd=REPO,
                          capture_output=True, text=True, timeout=120)


def test_tiny_match_with_random_players(tmp_path):
    engine = f"{sys.executable} -m engine"
    records = tmp_path / "games.txt"
    result = run_match("--game", "dvonn", "--a", engine, "--b", engine,
                       "--a-setup", "option player random", "--b-setup", "option player random",
                       "--dvonn-openings", "1", "--dvonn-opening-plies", "4", "--concurrency", "2",
                       "--sprt", "0", "50", "0.05", "0.05", "--records", str(records))
    assert result.returncode == 0, result.stderr
    assert "dvonn, 2 games:" in result.stdout and "SPRT:" in result.stdout
    lines = records.read_text().strip().split("\n")
    assert [line.split()[:2] for line in lines] == [["1", "A=w"], ["2", "A=b"]]
    opening = match.random_prefixes(DvonnGame, 1, 4, 1)[0]
    assert all(f"| opening {' '.join(opening)} |" in line for line in lines)


def test_sprt_stops_early(tmp_path):
    # the search against the random player: a wide H1 margin is accepted within a few games
    engine = f"{sys.executable} -m engine"
    result = run_match("--game", "tzaar", "--a", engine, "--b", engine, "--games", "40",
                       "--movetime", "20", "--b-setup", "option player random",
                       "--sprt", "-400", "0", "0.2", "0.2")
    assert result.returncode == 0, result.stderr
    assert "SPRT: H1 accepted after" in result.stdout
    games = int(result.stdout.split(" games: ")[0].rsplit(" ", 1)[1])
    assert games < 40


def test_codecup_opponent():
    engine = f"{sys.executable} -m engine"
    result = run_match("--game", "dvonn", "--games", "2", "--a", engine,
                       "--a-setup", "option player random",
                       "--b-codecup", f"{sys.executable} scripts/codecup --setup 'option player random'")
    assert result.returncode == 0, result.stderr
    assert "dvonn, 2 games:" in result.stdout and "forfeit" not in result.stdout


def test_argument_checks():
    engine = f"{sys.executable} -m engine"
    result = run_match("--game", "tzaar", "--a", engine, "--b-codecup", "x")
    assert result.returncode == 2 and "DVONN only" in result.stderr
    result = run_match("--game", "dvonn", "--a", engine, "--b", engine, "--sprt", "10", "0", ".05", ".05")
    assert result.returncode == 2 and "elo0 < elo1" in result.stderr
