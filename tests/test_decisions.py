"""gipf-decisions: exact values checked against a plain minimax over the rules, an interrupted
build continued to the same file, the counting of given-away results, and one-line errors."""
from __future__ import annotations

import json
import os
from functools import lru_cache

import pytest

from engine import core
from engine.games import GAMES
from engine.tools import decisions, selfplay

pytestmark = pytest.mark.skipif(not core.AVAILABLE, reason="the compiled core is needed")


@pytest.fixture(scope="module")
def selfplay_file(tmp_path_factory):
    path = tmp_path_factory.mktemp("decisions") / "sp.jsonl"
    with open(path, "w") as f:
        for index in range(30):
            for row in selfplay.play_game("dvonn", index, 5, 300, 6):
                f.write(json.dumps(row) + "\n")
    return path


def minimax(position: str) -> int:
    """The exact final margin from the side to act's view, by the rules alone."""
    @lru_cache(maxsize=None)
    def value(text: str) -> int:
        game = GAMES["dvonn"].from_position(text)
        if game.over:
            white, black = game.scores()
            return white - black if game.side == 0 else black - white
        best, mover = None, game.side
        for move in game.legal_moves():
            game.push(move)
            child = value(game.position())
            found = child if game.side == mover else -child
            game.pop()
            best = found if best is None else max(best, found)
        return best
    return value(position)


def build(out, selfplay_file, count: int, seed: int = 1, points: str = "5-9") -> int:
    return decisions.main(["build", "--points", points, "--count", str(count), "--seed", str(seed),
                           "--solve-ms", "2000", "--workers", "2", "--out", str(out), str(selfplay_file)])


def test_every_value_is_the_exact_margin_a_plain_minimax_finds(tmp_path, selfplay_file):
    out = tmp_path / "bench.jsonl"
    assert build(out, selfplay_file, 6) == 0
    rows = [json.loads(line) for line in out.read_text().splitlines()]
    assert len(rows) == 6
    for row in rows:
        game = GAMES["dvonn"].from_position(row["position"])
        assert 5 <= sum(1 for cell in game.cells if cell) <= 9
        mover, expected = game.side, {}
        for move in game.legal_moves():
            game.push(move)
            child = minimax(game.position())
            expected[game.move_text(move)] = child if game.side == mover else -child
            game.pop()
        assert row["values"] == expected
        assert len({(v > 0) - (v < 0) for v in expected.values()}) > 1  # a decision to make


def test_an_interrupted_build_continues_to_what_one_run_writes(tmp_path, selfplay_file):
    whole, parts = tmp_path / "whole.jsonl", tmp_path / "parts.jsonl"
    assert build(whole, selfplay_file, 5) == 0
    assert build(parts, selfplay_file, 2) == 0
    assert build(parts, selfplay_file, 5) == 0
    assert parts.read_text() == whole.read_text()
    assert build(parts, selfplay_file, 5, seed=2) == 1  # another order: not this file's run


def test_a_line_a_killed_build_left_half_written_is_cut_before_it_continues(tmp_path, selfplay_file):
    whole, parts = tmp_path / "whole.jsonl", tmp_path / "parts.jsonl"
    assert build(whole, selfplay_file, 4) == 0
    assert build(parts, selfplay_file, 2) == 0
    with open(parts, "a") as f:
        f.write('{"game": "dvonn", "position": "dvonn b mo')
    assert build(parts, selfplay_file, 4) == 0
    assert parts.read_text() == whole.read_text()


def chosen_move(position: str, nodes: int) -> str:
    game = GAMES["dvonn"].from_position(position)
    core.clear_hash()
    found = core.search("dvonn", game.cells, game.side, core.phase(game), nodes=nodes, seed=1)
    return game.move_text(core.to_move(game, found.moves))


def test_a_move_that_loses_a_win_is_counted_and_the_best_move_is_not(tmp_path, selfplay_file, capsys):
    source = tmp_path / "bench.jsonl"
    build(source, selfplay_file, 2)
    first, second = [json.loads(line) for line in source.read_text().splitlines()]
    for row, chosen_value, other_value in ((first, -3, 5), (second, 7, 7)):
        chosen = chosen_move(row["position"], 500)
        row["values"] = {move: (chosen_value if move == chosen else other_value - 1)
                         for move in row["values"]}
        row["values"][next(m for m in row["values"] if m != chosen)] = other_value
    bench = tmp_path / "crafted.jsonl"
    bench.write_text("".join(json.dumps(row) + "\n" for row in (first, second)))
    weights = tmp_path / "same.txt"
    weights.write_text("dvonn.field 122\n")  # the default: the same choices
    capsys.readouterr()
    assert decisions.main(["score", str(bench), "--nodes", "500", "--workers", "1",
                           "--weights", str(weights)]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[0] == ("the engine's evaluation: 2 positions, result given away 1 (50.00 %), "
                        "margin lost 4.00")
    assert lines[1] == (f"{weights}: 2 positions, result given away 1 (50.00 %), margin lost 4.00; "
                        "against the first +0 ± 0 (0 better, 0 worse)")


def test_a_worse_evaluation_gives_more_results_away(tmp_path, selfplay_file, capsys):
    bench = tmp_path / "bench.jsonl"
    build(bench, selfplay_file, 40, points="5-14")
    blind = tmp_path / "blind.txt"  # every stacking-phase term off: the search alone decides
    blind.write_text("".join(f"dvonn.{w.name} 0\n" for w in core.eval_weights("dvonn")
                             if not w.name.startswith("place_")))
    capsys.readouterr()
    assert decisions.main(["score", str(bench), "--nodes", "30", "--workers", "2",
                           "--weights", str(blind)]) == 0
    own, worse = capsys.readouterr().out.splitlines()

    def given(line: str) -> int:
        return int(line.split("result given away ")[1].split()[0])
    assert given(worse) > given(own)


@pytest.mark.parametrize("line, message", [
    ("not json\n", "line 1 is not JSON"),
    ('{"game": "dvonn", "position": "dvonn w move -", "values": {"A1-B1": 1}}\n', "line 1:"),
    ('{"game": "chess", "position": "x", "values": {"e4": 1}}\n', "not a gipf-decisions build line"),
])
def test_a_bad_bench_line_is_one_error(tmp_path, capsys, line, message):
    bench = tmp_path / "bad.jsonl"
    bench.write_text(line)
    assert decisions.main(["score", str(bench), "--nodes", "100"]) == 1
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and message in err and err.startswith("decisions: ")


def test_values_that_do_not_match_the_legal_moves_are_refused(tmp_path, selfplay_file, capsys):
    source = tmp_path / "bench.jsonl"
    build(source, selfplay_file, 1)
    row = json.loads(source.read_text())
    row["values"].popitem()
    bench = tmp_path / "short.jsonl"
    bench.write_text(json.dumps(row) + "\n")
    capsys.readouterr()
    assert decisions.main(["score", str(bench)]) == 1
    assert "not one whole number per legal move" in capsys.readouterr().err


@pytest.mark.parametrize("points", ["8-x", "9-5", "0-4"])
def test_a_bad_points_range_is_a_usage_error(tmp_path, capsys, points):
    with pytest.raises(SystemExit) as exit_status:
        decisions.main(["build", "--points", points, "--out", str(tmp_path / "b.jsonl"), "x.jsonl"])
    assert exit_status.value.code == 2
    assert capsys.readouterr().err.count("\n") == 1


def _dies(item):
    os._exit(3)  # a worker killed mid-search (the OOM killer, a signal)


def test_a_search_process_that_dies_is_one_error_not_a_hang(tmp_path, selfplay_file, capsys, monkeypatch):
    bench = tmp_path / "bench.jsonl"
    build(bench, selfplay_file, 2)
    monkeypatch.setattr(decisions, "decide", _dies)
    capsys.readouterr()
    assert decisions.main(["score", str(bench), "--workers", "2"]) == 1
    assert capsys.readouterr().err == "decisions: a search process ended unexpectedly\n"
