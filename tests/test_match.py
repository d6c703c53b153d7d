"""scripts/match: Elo and SPRT arithmetic, DVONN openings, and a tiny real match."""
from __future__ import annotations

import math
import os
import subprocess
import sys
import time
from pathlib import Path

import pytest

from engine.games.dvonn.rules import DvonnGame
from engine.tools import match, referee, stats

REPO = Path(__file__).resolve().parents[1]




def test_a_clean_sweep_reports_an_exact_one_sided_bound():
    # 100 wins: the win rate is at least 0.05 ** 0.01 = 0.97049 (95 %), i.e. about +607 Elo
    assert round(stats.one_sided_bound(100)) == 607
    assert stats.elo_text(100, 0, 0).startswith("Elo ≥ +607")
    assert stats.elo_text(0, 0, 100).startswith("Elo ≤ -607")
    assert "±" in stats.elo_text(60, 10, 30)


def test_expected_score_and_elo():
    assert stats.expected_score(0) == 0.5
    assert stats.expected_score(400) == pytest.approx(10 / 11)
    assert stats.expected_score(-400) == pytest.approx(1 / 11)
    diff, _ = stats.elo(0.75, 100, 0)
    assert diff == pytest.approx(400 * math.log10(3))   # 190.85
    diff, error = stats.elo(0.5, 100, 0)
    assert diff == pytest.approx(0) and error > 0


def test_sprt_bounds():
    lower, upper = stats.sprt_bounds(0.05, 0.05)
    assert (lower, upper) == pytest.approx((-2.944439, 2.944439), abs=1e-6)
    lower, upper = stats.sprt_bounds(0.05, 0.10)
    assert (lower, upper) == pytest.approx((math.log(0.10 / 0.95), math.log(0.90 / 0.05)))


def test_sprt_llr_known_values():
    # W 60 D 20 L 20: mean 0.7, per-game variance 0.16; s0 = 0.5, s1 = 1/(1+10^-0.025)
    s1 = 1 / (1 + 10 ** -0.025)
    expected = 100 * (s1 - 0.5) * (1.4 - 0.5 - s1) / 0.32
    assert expected == pytest.approx(1.7337, abs=1e-3)
    assert stats.sprt_llr(60, 20, 20, 0, 10) == pytest.approx(expected)
    # an even score favours H0, more so the wider the gap; symmetric results mirror
    assert stats.sprt_llr(40, 20, 40, 0, 10) < 0
    assert stats.sprt_llr(40, 20, 40, 0, 20) < stats.sprt_llr(40, 20, 40, 0, 10)
    assert stats.sprt_llr(60, 20, 20, -10, 10) == pytest.approx(-stats.sprt_llr(20, 20, 60, -10, 10))
    assert stats.sprt_llr(0, 0, 0, 0, 10) == 0
    # a clean sweep has no sample variance: half a pseudo-game of each result stands in
    # (1.5, 0.5, 0.5 over 2.5 games: mean 0.7, variance 0.16)
    s0, s1 = 1 / 11, 0.5
    assert stats.sprt_llr(1, 0, 0, -400, 0) == pytest.approx((s1 - s0) * (2 - s0 - s1) / 0.32)
    assert stats.sprt_llr(5, 0, 0, 0, 10) > 0 > stats.sprt_llr(0, 0, 5, 0, 10)


def test_dvonn_openings_are_reproducible_legal_prefixes():
    openings = referee.random_prefixes(DvonnGame, 5, 8, seed=3)
    assert openings == referee.random_prefixes(DvonnGame, 5, 8, seed=3)
    assert openings != referee.random_prefixes(DvonnGame, 5, 8, seed=4)
    assert len({tuple(o) for o in openings}) == 5
    for opening in openings:
        game = DvonnGame()
        for move in opening:
            game.play_text(move)
        assert game.placed == 8


def run_match(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "engine.tools.match", *args], cwd=REPO,
                          capture_output=True, text=True, timeout=120)


def test_tiny_match_with_random_players(tmp_path):
    engine = f"{sys.executable} -m engine"
    records = tmp_path / "games.txt"
    result = run_match("--game", "dvonn", "--a", engine, "--b", engine,
                       "--a-setup", "option player random", "--b-setup", "option player random",
                       "--random-openings", "1", "--opening-plies", "4", "--concurrency", "2",
                       "--sprt", "0", "50", "0.05", "0.05", "--records", str(records))
    assert result.returncode == 0, result.stderr
    assert "dvonn, 2 games:" in result.stdout and "SPRT:" in result.stdout
    lines = records.read_text().strip().split("\n")
    assert [line.split()[:2] for line in lines] == [["1", "A=w"], ["2", "A=b"]]
    opening = referee.random_prefixes(DvonnGame, 1, 4, 1)[0]
    assert all(f"| opening {' '.join(opening)} |" in line for line in lines)


def test_a_killed_match_keeps_the_records_and_think_times_of_its_finished_games(tmp_path):
    engine = f"{sys.executable} -m engine"
    records, thinks = tmp_path / "games.txt", tmp_path / "thinks.csv"
    proc = subprocess.Popen([sys.executable, "-m", "engine.tools.match", "--game", "dvonn",
                             "--a", engine, "--b", engine, "--a-setup", "option player random",
                             "--b-setup", "option player random", "--random-openings", "200",
                             "--records", str(records), "--think-times", str(thinks)],
                            cwd=REPO, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        deadline = time.monotonic() + 90
        while time.monotonic() < deadline and proc.poll() is None:
            if records.exists() and records.read_text().count("\n") >= 3:
                break
            time.sleep(0.05)
    finally:
        proc.terminate()  # SIGTERM: the engines are ended and the referee exits at once
        proc.wait(timeout=30)
    lines = records.read_text().strip().split("\n")
    assert len(lines) >= 3 and proc.returncode != 0  # killed, not finished: 400 games were asked
    games = {int(line.split()[0]) for line in lines}
    assert all(" | " in line and line.split()[1] in ("A=w", "A=b") for line in lines)
    rows = thinks.read_text().strip().split("\n")
    assert rows[0] == "game,engine,colour,ply,ms,move,depth"
    assert games <= {int(row.split(",")[0]) for row in rows[1:]}


@pytest.mark.skipif(not referee.usable_cpus(), reason="this system offers no CPU affinity")
def test_pinned_seats_keep_both_engines_on_the_cpu_they_were_given():
    engine = f"{sys.executable} -m engine"
    args = match.parse_args(["--game", "dvonn", "--a", engine, "--b", engine, "--pin",
                             "--a-setup", "option player random",
                             "--b-setup", "option player random", "--allow-python-player"])
    cpu = referee.usable_cpus()[-1]
    seats = referee.make_seats(args, {cpu})
    try:
        pids = [seat.engine.pid for seat in seats]
        assert len(set(pids)) == 2
        assert all(os.sched_getaffinity(pid) == {cpu} for pid in pids)
    finally:
        for seat in seats:
            seat.close()


def test_pinned_match_plays_its_games_at_once_and_pin_is_refused_with_ray(tmp_path):
    engine = f"{sys.executable} -m engine"
    result = run_match("--game", "dvonn", "--a", engine, "--b", engine, "--pin",
                       "--a-setup", "option player random", "--b-setup", "option player random",
                       "--random-openings", "1", "--opening-plies", "4", "--concurrency", "2",
                       "--allow-python-player")
    assert result.returncode == 0, result.stderr
    assert "dvonn, 2 games:" in result.stdout
    refused = run_match("--game", "dvonn", "--a", engine, "--b", engine, "--pin", "--ray")
    assert refused.returncode == 2 and "--pin" in refused.stderr and "Ray" in refused.stderr


def test_dvonn_from_the_empty_board_games_vary_by_the_engines_seed(tmp_path):
    """No prefix (the opening-book screen): without --random-openings, or with prefixes of 0
    placements, every game starts empty and the engines' seed option makes them differ."""
    engine = f"{sys.executable} -m engine"
    runs = []
    for extra in ([], ["--random-openings", "1", "--opening-plies", "0"]):
        records = tmp_path / f"games{len(extra)}.txt"
        result = run_match("--game", "dvonn", "--a", engine, "--b", engine, "--games", "2",
                           "--movetime", "0", "--a-setup", "option nodes 300",
                           "--b-setup", "option nodes 300", "--records", str(records), *extra)
        assert result.returncode == 0, result.stderr
        runs.append(records.read_text().strip().split("\n"))
    assert runs[0] == runs[1]
    heads = [line.split(" | ")[0] for line in runs[0]]
    assert heads == ["1 A=w newgame dvonn", "2 A=b newgame dvonn"]
    assert runs[0][0].split(" | ")[2] != runs[0][1].split(" | ")[2]


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


def test_the_opening_flags_name_themselves_in_errors(capsys):
    base = ["--game", "dvonn", "--a", "x", "--b", "y"]
    args = match.parse_args(base + ["--random-openings", "3", "--opening-plies", "2"])
    assert (args.random_openings, args.opening_plies, args.games) == (3, 2, 6)
    with pytest.raises(SystemExit):
        match.parse_args(base + ["--random-openings", "-1"])
    assert "--random-openings must not be negative" in capsys.readouterr().err
    with pytest.raises(SystemExit):
        match.parse_args(["--game", "tzaar", "--a", "x", "--b", "y", "--random-openings", "2"])
    assert "--random-openings is for games without seeded layouts; TZAAR has --openings random" \
        in capsys.readouterr().err

def match_help(capsys) -> str:
    with pytest.raises(SystemExit):
        match.parse_args(["--help"])
    return capsys.readouterr().out


def test_argument_checks():
    engine = f"{sys.executable} -m engine"
    result = run_match("--game", "tzaar", "--a", engine, "--b-codecup", "x")
    assert result.returncode == 2 and "DVONN only" in result.stderr
    result = run_match("--game", "dvonn", "--a", engine, "--b", engine, "--sprt", "10", "0", ".05", ".05")
    assert result.returncode == 2 and "elo0 < elo1" in result.stderr


class ScriptedSeat:
    """A seat that plays the first legal move, taking at least `think_s` seconds for each."""

    def __init__(self, name: str, think_s: float) -> None:
        self.name, self.think_s = name, think_s

    def start(self, setup, colour, limit=None, clock=None) -> None:
        pass

    def genmove(self, side, game, budget=None) -> str:
        time.sleep(self.think_s)
        return game.move_text(game.legal_moves()[0])

    def last_depth(self):
        return None

    def play(self, side, move) -> None:
        pass

    def finish(self) -> None:
        pass


def referee_args(**overrides):
    args = match.parse_args(["--game", "dvonn", "--a", "a", "--b", "b"])
    for name, value in overrides.items():
        setattr(args, name, value)
    return args


def test_the_referee_flags_a_clock_that_runs_out():
    # B sleeps 250 ms a move against a 200 ms game: its first move already oversteps
    args = referee_args(gametime=200)
    played = referee.play_game(args, [ScriptedSeat("A", 0.0), ScriptedSeat("B", 0.25)], 0, 0, [])
    assert played.lost_on_time == 1 and played.white_score == 1.0
    assert "b lost on time" in played.record
    assert [(ply, side) for ply, side, _, _, _ in played.thinks] == [(1, 0), (2, 1)]
    tally = match.Tally(args)
    tally.add(0, 0, played)
    assert tally.time_losses == {"A": 0, "B": 1} and tally.losses == 0


def test_without_a_game_clock_nobody_loses_on_time():
    args = referee_args(movetime=1)
    played = referee.play_game(args, [ScriptedSeat("A", 0.0), ScriptedSeat("B", 0.0)], 0, 0, [])
    assert played.lost_on_time is None and "clock used" not in played.record
    assert len(played.thinks) == len(played.record.split(" | ")[-1].split(" , "))


def test_clock_profile_tables_think_times_per_ply_range(tmp_path):
    thinks = tmp_path / "thinks.csv"
    thinks.write_text("game,engine,colour,ply,ms,move\n"
                      "1,A,w,1,10.0,F3\n1,B,b,2,30.0,C3\n1,A,w,3,20.0,I3\n1,B,b,4,50.0,\"D3\"\n"
                      "2,A,b,2,40.0,C3\n2,B,w,1,70.0,F3\n")
    result = subprocess.run([sys.executable, "scripts/clock_profile", str(thinks), "--bucket", "2"],
                            cwd=REPO, capture_output=True, text=True, timeout=60)
    assert result.returncode == 0, result.stderr
    rows = [line.split() for line in result.stdout.strip().split("\n")[1:]]
    # A: plies 1-2 hold 10 and 40 ms (median 25, 50 ms over 2 games), plies 3-4 hold 20 ms
    # a file without the depth column: no depths
    assert rows[0][:5] == ["A", "1-2", "2", "25.0", "37.0"] and rows[0][5:] == ["25", "71.4%", "-"]
    assert rows[1][:4] == ["A", "3-4", "1", "20.0"]
    assert rows[2][:2] == ["A", "all"] and rows[2][3] == "35"
    bad = tmp_path / "bad.csv"
    bad.write_text("game,engine,colour,ply,ms,move\n1,A,w,one,10.0,F3\n")
    result = subprocess.run([sys.executable, "scripts/clock_profile", str(bad)],
                            cwd=REPO, capture_output=True, text=True, timeout=60)
    assert result.returncode == 1 and result.stderr.count("\n") == 1 and "bad line" in result.stderr


def test_clock_profile_gives_the_median_depth_of_the_moves_that_reported_one(tmp_path):
    thinks = tmp_path / "thinks.csv"
    thinks.write_text("game,engine,colour,ply,ms,move,depth\n"
                      "1,A,w,1,10.0,F3,4\n1,A,w,3,20.0,I3,7\n1,A,w,5,1.0,B3,\n"
                      "1,B,b,2,30.0,C3,\n")
    result = subprocess.run([sys.executable, "-m", "engine.tools.clock_profile", str(thinks),
                             "--bucket", "10"], cwd=REPO, capture_output=True, text=True, timeout=60)
    assert result.returncode == 0, result.stderr
    rows = {tuple(line.split()[:2]): line.split() for line in result.stdout.strip().split("\n")[1:]}
    assert rows["A", "1-10"][2] == "3" and rows["A", "1-10"][-1] == "5.5"  # 4 and 7; the blank left out
    assert rows["B", "1-10"][-1] == "-"
    short = tmp_path / "short.csv"
    short.write_text("game,engine,colour,ply,ms,move,depth\n1,A,w,1,10.0,F3\n")
    result = subprocess.run([sys.executable, "-m", "engine.tools.clock_profile", str(short)],
                            cwd=REPO, capture_output=True, text=True, timeout=60)
    assert result.returncode == 1 and "bad line" in result.stderr


def test_think_times_hold_the_depth_each_search_completed(tmp_path):
    engine = f"{sys.executable} -m engine"
    thinks = tmp_path / "thinks.csv"
    result = run_match("--game", "dvonn", "--a", engine, "--b", engine, "--games", "2",
                       "--a-setup", "option depth 2", "--b-setup", "option depth 3",
                       "--random-openings", "1", "--opening-plies", "40",
                       "--think-times", str(thinks))
    assert result.returncode == 0, result.stderr
    lines = thinks.read_text().strip().split("\n")
    assert lines[0] == "game,engine,colour,ply,ms,move,depth"
    reported = {"A": [], "B": []}
    for row in (line.split(",") for line in lines[1:]):
        if row[6]:  # a forced move (a pass) reports none
            reported[row[1]].append(int(row[6]))
    # the searches stop at their limits (sooner only once the game's end is proven)
    assert max(reported["A"]) == 2 and max(reported["B"]) == 3
    assert sum(d == 3 for d in reported["B"]) > len(reported["B"]) / 2
