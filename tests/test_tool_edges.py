"""The scripts as a new user meets them: closed pipes, bad commands, edge arguments."""
from __future__ import annotations

import signal
import subprocess
import sys
import time

import pytest
from conftest import REPO, sigint_as_in_a_terminal

from engine.tools import match, stats

PY = sys.executable
RANDOM_B = ["--b", f"{PY} -m engine", "--b-setup", "option player random"]


def script(*args: str, timeout: float = 120, **kw) -> subprocess.CompletedProcess:
    return subprocess.run([PY, *args], cwd=REPO, capture_output=True, text=True,
                          timeout=timeout, **kw)




def test_elo_text_never_says_minus_zero_and_games_are_counted_in_english():
    assert stats.elo_text(10, 1, 10).startswith("Elo +0 ± ")
    assert "-0 " not in stats.elo_text(100, 1, 101)
    assert match.plural(1, "game") == "1 game" and match.plural(2, "game") == "2 games"


def test_pentanomial_llr_matches_the_normal_approximation_and_its_signs():
    pairs = [10, 20, 40, 20, 10]  # mean 1/2, variance 0.075 per game-pair score
    s0, s1 = stats.expected_score(0), stats.expected_score(5)
    approx = 100 * (s1 - s0) * (1 - s0 - s1) / (2 * 0.075)
    assert stats.pentanomial_llr(pairs, 0, 5) == pytest.approx(approx, rel=0.02)
    assert stats.pentanomial_llr([5, 10, 40, 30, 15], 0, 5) > 0 > stats.pentanomial_llr(
        [15, 30, 40, 10, 5], 0, 5)
    assert stats.pentanomial_llr([0, 0, 0, 0, 0], 0, 5) == 0
    assert stats.pentanomial_llr([0, 0, 0, 0, 3], 0, 10) > 0  # one outcome only: regularised


def test_match_refuses_zero_games_and_reports_a_start_up_error_in_one_line():
    result = script("scripts/match", "--game", "dvonn", "--games", "0", "--a", "x", "--b", "y")
    assert result.returncode == 2 and "--games must be at least 1" in result.stderr
    result = script("scripts/match", "--game", "dvonn", "--games", "2", "--a", "no-such-engine",
                    *RANDOM_B)
    assert result.returncode == 1 and result.stdout == ""
    assert result.stderr.strip() == ("match: EngineError: cannot start A ('no-such-engine'): "
                                     "No such file or directory")


def test_one_game_match_says_one_game():
    result = script("scripts/match", "--game", "dvonn", "--games", "1", "--movetime", "20",
                    "--a", f"{PY} -m engine", "--a-setup", "option player random", *RANDOM_B)
    assert result.returncode == 0, result.stderr
    assert ", 1 game: " in result.stdout


def wait_for_children(pid: int, count: int) -> None:
    for _ in range(600):
        found = subprocess.run(["ps", "-o", "pid=", "--ppid", str(pid)], capture_output=True,
                               text=True).stdout.split()
        if len(found) >= count:
            return
        time.sleep(0.05)
    raise AssertionError(f"process {pid} never started {count} children")


def test_ctrl_c_reaches_only_the_referee_and_unfinished_games_are_not_counted():
    proc = subprocess.Popen([PY, "scripts/match", "--game", "dvonn", "--games", "4",
                             "--movetime", "2000", "--a", f"{PY} -m engine", *RANDOM_B],
                            cwd=REPO, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                            preexec_fn=sigint_as_in_a_terminal)
    wait_for_children(proc.pid, 2)
    time.sleep(2)  # the first game under way (A thinks 2 s a move)
    proc.send_signal(signal.SIGINT)
    time.sleep(0.5)
    proc.send_signal(signal.SIGINT)  # the second one abandons the game in progress
    out, err = proc.communicate(timeout=60)
    assert "Traceback" not in err
    assert "abandoned the games in progress" in err
    assert "lost" not in out  # A was never stopped mid-move, so no loss was counted
    assert "0 games: +0 =0 -0" in out


def test_codecup_referee_with_a_missing_player_says_so_in_one_line():
    result = script("scripts/codecup_referee", "--white", "no-such-player", "--black",
                    f"{PY} scripts/codecup")
    assert result.returncode == 1 and result.stdout == ""
    assert result.stderr.strip() == ("codecup_referee: cannot start White ('no-such-player'): "
                                     "No such file or directory")


def test_regress_blames_the_engine_not_the_file_and_names_expected_failures(tmp_path):
    path = tmp_path / "example.tst"
    path.write_text("1 name\n#? [Gipfbot]\n2 name\n#? [Nobody]*\n")
    result = script("scripts/regress", "-v", str(path))
    assert "EXPECTED FAIL" in result.stdout and "2 name" in result.stdout
    dead = script("scripts/regress", "--engine", f"{PY} -c pass", str(path))
    assert dead.returncode == 1
    assert "the engine (" in dead.stdout and "example.tst closed" not in dead.stdout


@pytest.mark.parametrize("args", [
    ["scripts/regress", "-v", "tests/regress/protocol.tst"],
    ["scripts/match", "--game", "dvonn", "--games", "2", "--movetime", "10",
     "--a", f"{PY} -m engine", "--a-setup", "option player random", *RANDOM_B],
])
def test_scripts_exit_quietly_when_their_output_closes(args):
    proc = subprocess.Popen([PY, *args], cwd=REPO, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE)
    proc.stdout.readline()
    proc.stdout.close()  # as `| head -1` does
    err = proc.stderr.read().decode()
    proc.stderr.close()
    assert proc.wait(timeout=120) == 0
    assert "Traceback" not in err and "BrokenPipe" not in err


@pytest.mark.parametrize("name", ["bench", "bench_live", "bench_protocol", "bench_solver", "book",
                                  "bridge", "clock_profile", "codecup", "codecup_referee",
                                  "littlegolem", "match",
                                  "regress", "review", "selfplay", "spsa", "tune"])
def test_every_script_explains_every_option(name, tmp_path):
    result = subprocess.run([PY, str(REPO / "scripts" / name), "--help"], cwd=tmp_path,
                            capture_output=True, text=True, timeout=60)
    assert result.returncode == 0, result.stderr
    lines = result.stdout.split("\n")
    for i, line in enumerate(lines):
        if line.startswith("  -") and "  " not in line.strip():  # the help is on the next line
            assert i + 1 < len(lines) and lines[i + 1].startswith(" " * 10), \
                f"{name}: {line.strip()} has no description"
    assert "(issue)" not in result.stdout


def test_bench_against_a_tree_without_a_compiled_core_says_so_in_one_line(tmp_path):
    result = script(str(REPO / "scripts" / "bench"), "--against", str(tmp_path))
    assert result.returncode == 1 and result.stdout == ""
    assert result.stderr.count("\n") == 1 and "no compiled core in" in result.stderr
    result = script(str(REPO / "scripts" / "bench"), "--against", str(REPO), "--rounds", "0")
    assert result.returncode == 1 and result.stderr.strip() == "bench: --rounds must be at least 1"


def test_bench_times_two_threads_against_one():
    result = script(str(REPO / "scripts" / "bench"), "--smp", "--game", "tzaar", "--smp-depth", "2")
    assert result.returncode == 0, result.stderr
    lines = result.stdout.strip().split("\n")[1:]
    assert len(lines) == 1
    assert lines[0].startswith("tzaar: time to depth 2 over 16 positions, 2 threads vs 1")
    result = script(str(REPO / "scripts" / "bench"), "--smp", "--smp-depth", "0")
    assert result.returncode == 1 and result.stderr.strip() == "bench: --smp-depth must be from 1 to 30"
