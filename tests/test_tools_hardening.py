"""Every tool at its edges: bounded reads, one-line errors, whole output files, the
compiled-core check, a seat that never answers, a closed stdout."""
from __future__ import annotations

import importlib
import os
import re
import subprocess
import sys

import pytest
from conftest import HAND_BUILT_TZAAR, REPO

PY = sys.executable
TOOLS = ["bench", "bench_live", "bench_protocol", "bench_solver", "book", "bridge",
         "clock_profile", "codecup", "codecup_referee", "decisions", "littlegolem", "match", "regress",
         "review", "selfplay", "spsa", "tune"]


def tool_target(name: str) -> str:
    """The module:function pyproject.toml's console command gipf-<name> runs."""
    import tomllib
    scripts = tomllib.loads((REPO / "pyproject.toml").read_text())["project"]["scripts"]
    return scripts[f"gipf-{name.replace('_', '-')}"]


def tool(name: str):
    return importlib.import_module(tool_target(name).split(":")[0])


def run_main(name: str, argv: list[str], capsys) -> tuple[int, str, str]:
    """(status, stdout, stderr) of a tool's main(argv) in this process; SystemExit counts."""
    try:
        status = tool(name).main(argv)
    except SystemExit as e:
        status = e.code
    out, err = capsys.readouterr()
    return status, out, err


def one_line(err: str) -> str:
    assert err.endswith("\n") and err.count("\n") == 1, err
    assert "Traceback" not in err
    return err.strip()


def process(*args: str, stdin=None, env=None, timeout: float = 120) -> subprocess.CompletedProcess:
    return subprocess.run([PY, "-m", *args], cwd=REPO, stdin=stdin, capture_output=True,
                          text=True, timeout=timeout, env=env)


@pytest.fixture
def bad_paths(tmp_path):
    """Paths no tool may read whole or wait on: a device, a FIFO, a folder, bytes that are not
    text, a file that is not there."""
    fifo = tmp_path / "fifo"
    os.mkfifo(fifo)
    junk = tmp_path / "junk.bin"
    junk.write_bytes(bytes(range(256)) * 8)
    return {"/dev/zero": "not a regular file", str(fifo): "not a regular file",
            str(tmp_path): "not a regular file", str(junk): "not utf-8 text",
            str(tmp_path / "missing"): "No such file or directory"}


# --- every file a tool reads is bounded -------------------------------------------------------

@pytest.mark.parametrize("name, argv", [
    ("bridge", ["--movetime", "50", "{}"]),
    ("tune", ["--game", "dvonn", "{}"]),
    ("tune", ["--game", "dvonn", "--weights", "{}", "x.jsonl"]),
    ("review", ["--depth", "1", "{}"]),
    ("clock_profile", ["{}"]),
    ("selfplay", ["--game", "dvonn", "--weights", "{}"]),
    ("spsa", ["--game", "dvonn", "--out", "{out}", "--params", "{}"]),
    ("decisions", ["build", "--points", "5-9", "--out", "{out}", "{}"]),
    ("decisions", ["score", "{}"]),
    ("decisions", ["score", "--weights", "{}", "{}"]),
])
def test_a_device_fifo_folder_binary_or_missing_file_is_one_line_and_status_1(
        name, argv, bad_paths, capsys, tmp_path):
    for path, reason in bad_paths.items():
        if name in ("review", "bridge") and reason == "not utf-8 text":
            continue  # records are read as bytes: their parser refuses them
        args = [a.format(path, out=tmp_path / "out.txt") for a in argv]
        status, out, err = run_main(name, args, capsys)
        assert status == 1, (name, path, err)
        assert reason in one_line(err) and out == ""
    assert not (tmp_path / "out.txt").exists()


def test_regress_reports_an_unreadable_file_as_its_failure(bad_paths, capsys):
    for path, reason in bad_paths.items():
        status, out, err = run_main("regress", [path], capsys)
        assert status == 1 and err == ""
        assert out.splitlines()[0] == f"FAIL {path}: cannot read {path}: {reason}" \
            or out.startswith(f"FAIL {path}: cannot read {path}: {reason}")


def test_standard_input_is_read_bounded(capsys, monkeypatch):
    with open("/dev/zero") as zero:
        monkeypatch.setattr(sys, "stdin", zero)
        status, out, err = run_main("bridge", ["--movetime", "50", "-"], capsys)
        assert status == 1 and "larger than" in one_line(err)
        status, out, err = run_main("review", ["--depth", "1", "-"], capsys)
        assert status == 1 and "larger than" in one_line(err)


def test_codecup_refuses_an_endless_input_line():
    with open("/dev/zero", "rb") as zero:
        result = process(tool_target("codecup").split(":")[0], stdin=zero)
    assert result.returncode == 1 and result.stdout == ""
    assert "longer than 4096 bytes" in one_line(result.stderr)


# --- failures in one line ----------------------------------------------------------------------

@pytest.mark.parametrize("engine, reason", [("/nonexistent", "No such file or directory"),
                                            ('"unbalanced', "No closing quotation")])
def test_review_with_an_engine_that_cannot_start(engine, reason, tmp_path, capsys):
    record = tmp_path / "game.sgf"
    record.write_text(HAND_BUILT_TZAAR)
    status, out, err = run_main("review", ["--depth", "1", "--engine", engine, str(record)], capsys)
    assert status == 1 and out == "" and reason in one_line(err)


def test_codecup_with_an_engine_that_cannot_start():
    result = process(tool_target("codecup").split(":")[0], "--engine", "/nonexistent", stdin=subprocess.DEVNULL)
    assert result.returncode == 1
    assert one_line(result.stderr) == ("codecup ERROR: cannot start engine ('/nonexistent'): "
                                       "No such file or directory")


def test_codecup_referee_between_two_players_that_exit_at_once(capsys):
    status, out, err = run_main("codecup_referee", ["--white", "/bin/false", "--black", "/bin/false"],
                                capsys)
    assert status == 1 and out == "" and "White" in one_line(err)


def test_tune_checks_its_output_folder_before_reading_or_fitting(tmp_path, capsys):
    status, out, err = run_main("tune", ["--game", "dvonn", "--out", "/nonexistent/dir/w.txt",
                                         str(tmp_path / "missing.jsonl")], capsys)
    assert status == 1 and one_line(err) == ("tune: --out /nonexistent/dir/w.txt: no such folder "
                                             "/nonexistent/dir")


def test_selfplay_checks_its_output_before_any_game(capsys):
    status, out, err = run_main("selfplay", ["--game", "dvonn", "--out", "/nonexistent/x"], capsys)
    assert status == 1 and one_line(err) == "selfplay: --out /nonexistent/x: no such folder /nonexistent"


@pytest.mark.parametrize("option", ["--records", "--think-times"])
def test_match_checks_its_output_files_before_the_match(option, capsys):
    status, out, err = run_main("match", ["--game", "dvonn", "--a", "/nonexistent", "--b", "x",
                                          option, "/nonexistent/x"], capsys)
    assert status == 1 and one_line(err) == f"match: {option} /nonexistent/x: no such folder /nonexistent"


def test_a_match_that_plays_no_game_leaves_its_output_files_as_they_were(tmp_path, capsys):
    records, thinks = tmp_path / "games.txt", tmp_path / "thinks.csv"
    records.write_text("an earlier match\n")
    thinks.write_text("earlier,rows\n")
    status, out, err = run_main("match", ["--game", "dvonn", "--games", "2", "--a", "/nonexistent",
                                          "--b", "/nonexistent", "--records", str(records),
                                          "--think-times", str(thinks)], capsys)
    assert status == 1 and "match: " in err
    assert records.read_text() == "an earlier match\n" and thinks.read_text() == "earlier,rows\n"


class NoCluster:
    """Stands in for Ray where RAY_ADDRESS names no running cluster: init fails as Ray's does
    (a ConnectionError of several lines).  (A real `RAY_ADDRESS=auto` would join any cluster
    that happens to run on this machine.)"""

    @staticmethod
    def is_initialized() -> bool:
        return False

    @staticmethod
    def init(**kwargs):
        raise ConnectionError("Could not find any running Ray instance. Please specify the one to "
                              "connect to by setting `--address` flag or `RAY_ADDRESS` environment "
                              "variable.\n\nmore lines\nof explanation")


@pytest.mark.parametrize("name, argv", [
    ("match", ["--game", "dvonn", "--a", "x", "--b", "y", "--ray", "--games", "1"]),
    ("selfplay", ["--game", "dvonn", "--ray", "--games", "1", "--nodes", "100"]),
    ("book", ["--ray", "--games", "1", "--nodes", "100"]),
    ("spsa", ["--game", "dvonn", "--ray", "--out", "{out}", "search_lmp:3:0:10:1"]),
])
def test_ray_without_a_cluster_is_one_line(name, argv, monkeypatch, capsys, tmp_path):
    monkeypatch.setitem(sys.modules, "ray", NoCluster)
    monkeypatch.setenv("RAY_ADDRESS", "auto")
    if name == "spsa":
        pytest.importorskip("nevergrad")
    status, out, err = run_main(name, [a.format(out=tmp_path / "w.txt") for a in argv], capsys)
    assert status == 1 and out == ""
    assert one_line(err) == (f"{name}: cannot start the Ray cluster at RAY_ADDRESS=auto: Could not "
                             "find any running Ray instance. Please specify the one to connect to "
                             "by setting `--address` flag or `RAY_ADDRESS` environment variable.")
    assert not (tmp_path / "w.txt").exists()


# --- usage errors: one line, status 2 -------------------------------------------------------------

@pytest.mark.parametrize("name", TOOLS)
def test_a_usage_error_is_one_line_with_status_2(name, capsys):
    status, out, err = run_main(name, ["--no-such-option"], capsys)
    assert status == 2 and out == ""
    line = one_line(err)
    assert line.startswith(f"gipf-{name.replace('_', '-')}: ") and line.endswith(" (see --help)")


# --- whole output files -------------------------------------------------------------------------------

@pytest.mark.parametrize("stop", [RuntimeError("the core failed"), KeyboardInterrupt()])
def test_selfplay_leaves_no_partial_output(stop, tmp_path, capsys, monkeypatch):
    from engine.tools import selfplay
    played = []

    def play_game(*args):
        if played:
            raise stop
        played.append(args)
        return [{"game": "dvonn", "position": "p", "side": 0, "score": 0, "index": 0, "result": 1}]

    monkeypatch.setattr(selfplay, "play_game", play_game)
    out = tmp_path / "data.jsonl"
    out.write_text("the previous data\n")
    if isinstance(stop, KeyboardInterrupt):
        assert selfplay.main(["--game", "dvonn", "--games", "3", "--out", str(out)]) == 130
    else:
        with pytest.raises(RuntimeError):
            selfplay.main(["--game", "dvonn", "--games", "3", "--out", str(out)])
    assert out.read_text() == "the previous data\n"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["data.jsonl"]


def test_selfplay_head_1_exits_quietly():
    proc = subprocess.Popen([PY, "-m", "engine.tools.selfplay", "--game", "dvonn", "--games", "3",
                             "--nodes", "200"], cwd=REPO, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE)
    assert proc.stdout.readline().startswith(b'{"game": "dvonn"')
    proc.stdout.close()  # as `| head -1` does
    err = proc.stderr.read().decode()
    proc.stderr.close()
    assert proc.wait(timeout=120) == 0 and err == ""


# --- strength-relevant tools refuse an engine without the compiled core ---------------------------

PYTHON_ONLY = "0.1.0 core=unavailable (no compiled core)"


def test_match_refuses_a_python_player(fake_engine, capsys):
    engine = fake_engine(PYTHON_ONLY)
    status, out, err = run_main("match", ["--game", "dvonn", "--games", "1", "--a", engine,
                                          "--b", engine], capsys)
    assert status == 1
    assert "A does not run the compiled core" in one_line(err) and "--allow-python-player" in err


def test_bridge_and_review_refuse_a_python_player_unless_allowed(fake_engine, tmp_path, capsys):
    engine = fake_engine(PYTHON_ONLY)
    record = tmp_path / "game.sgf"
    record.write_text(HAND_BUILT_TZAAR)
    for name, argv in (("bridge", ["--movetime", "50"]), ("review", ["--depth", "1"])):
        status, out, err = run_main(name, [*argv, "--engine", engine, str(record)], capsys)
        assert status == 1 and "does not run the compiled core" in one_line(err)
    # allowed: past the check, and the stand-in's empty move is refused by our rules
    status, out, err = run_main("bridge", ["--movetime", "50", "--engine", engine,
                                           "--allow-python-player", str(record)], capsys)
    assert status == 1 and "compiled core" not in one_line(err)


def test_codecup_refuses_a_python_player(fake_engine):
    result = process(tool_target("codecup").split(":")[0], "--engine", fake_engine(PYTHON_ONLY),
                     stdin=subprocess.DEVNULL)
    assert result.returncode == 1 and "does not run the compiled core" in one_line(result.stderr)


# --- a seat that never answers loses ---------------------------------------------------------------

def test_a_seat_that_never_answers_genmove_loses_each_game(fake_engine, capsys):
    silent = fake_engine("0.1.0 core=compiled", "genmove")
    status, out, err = run_main("match", [
        "--game", "dvonn", "--games", "2", "--movetime", "10", "--move-timeout", "1500",
        "--a", silent, "--b", f"{PY} -m engine", "--b-setup", "option player random"], capsys)
    assert status == 0, err
    assert "dvonn, 2 games: +0 =0 -2" in out
    assert err.count("did not answer 'genmove") == 2 and "Traceback" not in err


def test_every_console_command_names_a_tools_main():
    """In engine/tools/, or for a tool that is one game's by nature in that game's folder."""
    for name in TOOLS:
        assert re.fullmatch(rf"engine\.(tools|games\.[a-z_]+)\.{name}:main", tool_target(name)), name
        assert callable(tool(name).main) and (REPO / "scripts" / name).is_file()
    assert tool_target("codecup") == "engine.games.dvonn.codecup:main"


@pytest.mark.parametrize("name, argv", [
    ("selfplay", ["--game", "dvonn", "--games", "1"]),
    ("tune", ["--game", "dvonn", "x.jsonl"]),
    ("book", ["--games", "1"]),
])
def test_in_process_tools_stop_at_once_without_the_compiled_core(name, argv, monkeypatch, capsys):
    from engine import core
    monkeypatch.setattr(core, "AVAILABLE", False)
    monkeypatch.setattr(core, "UNAVAILABLE_REASON", "not built")
    status, out, err = run_main(name, argv, capsys)
    assert status == 1 and out == ""
    assert one_line(err) == f"{name}: the compiled core is unavailable: not built"
