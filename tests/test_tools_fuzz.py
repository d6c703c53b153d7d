"""Random command lines for every tool's main(): an exit status of 0, 1 or 2 (returned, or
argparse's SystemExit), never a traceback, and at most one line on stderr for an error.

The work behind a valid command line (games, searches, benchmarks, Ray) is replaced by a
stand-in that stops the run, so the examples stay fast and start no real search."""
from __future__ import annotations

import importlib
import io
import re
import subprocess
import sys
import tomllib

import pytest
from conftest import REPO
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

TOOLS = ["bench", "bench_live", "bench_protocol", "bench_solver", "book", "bridge",
         "clock_profile", "codecup", "codecup_referee", "decisions", "match", "regress", "review",
         "selfplay", "spsa", "tune"]
VALUES = ["dvonn", "tzaar", "both", "0", "1", "-1", "7", "0.5", "-0.5", "1e9", "nan", "inf", "x",
          "", "-", "'", '"', "a;b", "/nonexistent", "/nonexistent/x", "/dev/zero", "/dev/null",
          "search_lmp:3:0:10:1", "dvonn.field:1:0:2:1", "fixed", "random", "text", "json", "w"]


def tool_module(name: str):
    """The tool's module, where pyproject.toml's console command gipf-<name> finds it (a
    one-game tool's is in its game's folder)."""
    scripts = tomllib.loads((REPO / "pyproject.toml").read_text())["project"]["scripts"]
    return importlib.import_module(scripts[f"gipf-{name.replace('_', '-')}"].split(":")[0])


class Stopped(BaseException):
    """A stand-in for the work was reached: the command line was accepted."""


def stop(*args, **kwargs):
    raise Stopped


def no_process(args, *rest, **kwargs):
    """subprocess.Popen's stand-in: as the real one with an empty argument list, else a
    command that is not there."""
    executable = args[0]  # noqa: F841 - IndexError for [], as Popen
    raise FileNotFoundError(2, "No such file or directory (stand-in)")


class NoRay:
    @staticmethod
    def is_initialized() -> bool:
        return False

    @staticmethod
    def init(**kwargs):
        raise ConnectionError("stand-in: no Ray cluster")


WORK = {  # module -> the names replaced by a stand-in
    "bench": {"positions": stop},
    "bench_live": {"stop_latencies": stop, "first_genmoves": stop},
    "bench_protocol": {"Engine": stop},
    "bench_solver": {"finished_games": stop},
    "book": {"run_local": stop, "run_ray": stop},
    "clock_profile": {},
    "decisions": {"build": stop, "score": stop},
    "bridge": {}, "codecup": {}, "codecup_referee": {}, "match": {}, "regress": {},
    "review": {"check_engine": stop, "review_record": stop},
    "selfplay": {"run_local": stop, "run_ray": stop},
    "spsa": {"Games": stop},
    "tune": {"load_data": stop},
}


def options_of(name: str) -> list[str]:
    """The options a tool's --help lists."""
    module = tool_module(name)
    saved = sys.stdout
    sys.stdout = io.StringIO()
    try:
        module.main(["--help"])
    except SystemExit:
        pass
    finally:
        text, sys.stdout = sys.stdout.getvalue(), saved
    return sorted(set(re.findall(r"(?<![\w-])--[a-z][a-z0-9-]*", text)) - {"--help"})


@pytest.fixture(scope="module")
def options():
    return {name: options_of(name) for name in TOOLS}


def argv_for(tool_options: list[str]):
    token = st.one_of(st.sampled_from(tool_options or ["--x"]), st.sampled_from(VALUES),
                      st.text(max_size=6))
    return st.lists(token, max_size=8)


@pytest.mark.parametrize("name", TOOLS)
def test_random_command_lines_end_cleanly(name, options, monkeypatch, tmp_path, capsys):
    module = tool_module(name)
    for attribute, stand_in in WORK[name].items():
        monkeypatch.setattr(module, attribute, stand_in)
    monkeypatch.setitem(sys.modules, "ray", NoRay)
    monkeypatch.setattr(subprocess, "Popen", no_process)  # no engine ever starts
    monkeypatch.chdir(tmp_path)  # an --out of a plain name lands here

    @settings(max_examples=25, deadline=None, database=None,
              suppress_health_check=[HealthCheck.function_scoped_fixture])
    @given(argv=argv_for(options[name]))
    def check(argv):
        monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(b"Start\nnot a move\n")))
        try:
            status = module.main(argv)
        except SystemExit as e:
            status = e.code
        except Stopped:
            status = 0
        out, err = capsys.readouterr()
        assert status in (0, 1, 2), (argv, status, err)
        assert "Traceback" not in err, (argv, err)
        if status:
            assert err.count("\n") <= 1, (argv, err)

    check()
