"""engine.client: every wait has a bound, every child is ended, children get our environment.

The fake engines are small Python scripts: one that never answers, one that ignores `quit`,
SIGTERM and the end of its input, one that dies in the middle of a reply, one that reports its
environment. Processes are found through a marker in their environment (/proc/<pid>/environ),
which every descendant inherits, so a grandchild that outlived its parent is found too.
"""
from __future__ import annotations

import asyncio
import json
import os
import re
import signal
import subprocess
import sys
import textwrap
import time
import uuid

import pytest
from conftest import REPO, sigint_as_in_a_terminal

from engine import client
from engine.client import (
    DEFAULT_ENGINE,
    DEFAULT_ENGINE_ARGV,
    AsyncEngineProcess,
    EngineDied,
    EngineError,
    EngineProcess,
    EngineRefused,
    EngineTimeout,
    Limit,
    SearchLimits,
    children,
    command_env,
    start,
    stop_popen,
)
from engine.client.limits import UNKNOWN
from engine.games.dvonn.line_player import PLAYER_LINE_LIMIT, LinePlayer
from engine.protocol import gtp
from engine.search import DEFAULT_MOVETIME_MS

PY = sys.executable
MARK = "GIPF_CLIENT_TEST"

# A GTP-framed fake: `child` starts a sleeping grandchild in the engine's group and answers its
# pid; `hang` never answers (a search that does not end); `env` answers PYTHONPATH and sys.path;
# `die` writes half a reply and exits; a line with a word `bad...` is refused; everything else answers '='.
# `--stubborn`: SIGTERM, `quit` and the end of input are ignored.
FAKE = textwrap.dedent("""\
    import json, os, signal, subprocess, sys, time
    if "--stubborn" in sys.argv:
        signal.signal(signal.SIGTERM, signal.SIG_IGN)
    def reply(text):
        sys.stdout.write(text + "\\n\\n")
        sys.stdout.flush()
    for line in sys.stdin:
        words = line.split()
        if not words:
            continue
        if words[0] == "child":
            sleeper = subprocess.Popen(
                [sys.executable, "-c", "import time; print(flush=True); time.sleep(600)"],
                stdout=subprocess.PIPE)
            sleeper.stdout.readline()   # it runs
            reply(f"= {sleeper.pid}")
        elif words[0] == "hang":
            while True:
                time.sleep(1)
        elif words[0] == "env":
            reply("= " + json.dumps({"PYTHONPATH": os.environ.get("PYTHONPATH"),
                                     "path": sys.path}))
        elif words[0] == "die":
            sys.stdout.write("=\\nthe first line of two\\n")
            sys.stdout.flush()
            os._exit(3)
        elif any(word.startswith("bad") for word in words):
            reply("? refused")
        elif words[0] == "quit" and "--stubborn" not in sys.argv:
            reply("=")
            break
        else:
            reply("=")
    while "--stubborn" in sys.argv:  # the end of input is ignored too
        time.sleep(1)
""")

SILENT = "import sys\nfor line in sys.stdin:\n    pass\n"


@pytest.fixture
def fake(tmp_path):
    path = tmp_path / "fake_engine.py"
    path.write_text(FAKE)
    return f"{PY} {path}"


@pytest.fixture
def mark(monkeypatch):
    """A marker in our environment, so that our children (and theirs) can be found."""
    value = uuid.uuid4().hex
    monkeypatch.setenv(MARK, value)
    return value


def marked(value: str, exclude: frozenset = frozenset()) -> set[int]:
    """Live processes with the marker in their environment (a zombie's environ is empty)."""
    needle = f"{MARK}={value}".encode()
    found = set()
    for entry in os.listdir("/proc"):
        if not entry.isdigit() or int(entry) in exclude:
            continue
        try:
            with open(f"/proc/{entry}/environ", "rb") as f:
                environ = f.read().split(b"\0")
        except OSError:
            continue
        if needle in environ:
            found.add(int(entry))
    return found


def wait_until(predicate, what: str, limit: float = 60.0) -> None:
    """A bounded wait (not a timing assertion: the bound only keeps a failure from hanging)."""
    deadline = time.monotonic() + limit
    while not predicate():
        if time.monotonic() > deadline:
            raise AssertionError(f"never: {what}")
        time.sleep(0.05)


@pytest.fixture
def quick_close(monkeypatch):
    monkeypatch.setattr(children, "QUIT_WAIT", 0.3)
    monkeypatch.setattr(children, "TERMINATE_WAIT", 0.3)


def test_one_error_family():
    for kind in (EngineRefused, EngineDied, EngineTimeout):
        assert issubclass(kind, EngineError)
    assert issubclass(EngineTimeout, EngineDied)
    assert not issubclass(EngineRefused, EngineDied)


def test_replies_refusals_and_a_blank_line(fake):
    with EngineProcess(fake, "fake") as engine:
        assert engine.send("name") == (True, "")
        assert engine.send("bad thing") == (False, "refused")
        with pytest.raises(EngineRefused, match="fake refused 'bad thing': refused"):
            engine.ask("bad thing")
        assert engine.send("# a comment gets no reply") == (True, "")
        with pytest.raises(ValueError):
            engine.send("name\nname")
        assert engine.ask("name") == ""   # still in step
    assert not engine.alive


def test_an_engine_that_never_answers_times_out_and_is_stopped(tmp_path):
    path = tmp_path / "silent.py"
    path.write_text(SILENT)
    engine = EngineProcess(f"{PY} {path}", "silent", timeout=0.5)
    with pytest.raises(EngineTimeout, match="silent did not answer 'name' within 0.5 s"):
        engine.send("name")
    assert not engine.alive
    with pytest.raises(EngineDied):
        engine.send("name")
    engine.close()


def test_a_search_times_out_at_the_limit_the_caller_passes(tmp_path):
    path = tmp_path / "silent.py"
    path.write_text(SILENT)
    engine = EngineProcess(f"{PY} {path}", "silent")
    with pytest.raises(EngineTimeout, match="'perft 12' within 0.5 s"):
        engine.send("perft 12", timeout=0.5)
    engine.close()


def test_close_kills_an_engine_that_ignores_quit_and_sigterm_and_its_children(
        fake, mark, quick_close):
    engine = EngineProcess(f"{fake} --stubborn", "stubborn")
    engine.ask("child")
    assert len(marked(mark)) == 2
    engine.close()
    assert not engine.alive and engine.returncode == -signal.SIGKILL
    wait_until(lambda: not marked(mark), "the engine and its child are gone")
    engine.close()  # again: nothing left to do


def test_close_interrupts_a_search_whose_caller_gave_up(fake, mark, quick_close):
    engine = EngineProcess(f"{fake} --stubborn", "stubborn")
    with pytest.raises(EngineTimeout):
        engine.send("hang", timeout=0.3)
    engine.close()
    wait_until(lambda: not marked(mark), "the engine is gone")


def test_an_engine_that_dies_in_the_middle_of_a_reply(fake):
    engine = EngineProcess(fake, "fake")
    with pytest.raises(EngineDied, match="fake closed its output after 'die'"):
        engine.send("die")
    with pytest.raises(EngineDied):
        engine.send("name")
    engine.close()
    assert engine.returncode == 3


def test_output_that_is_not_a_reply_fails_at_once():
    engine = EngineProcess("/bin/cat", "B")  # echoes the command: never an empty line
    with pytest.raises(EngineDied, match="B wrote no protocol reply to 'name' but 'name'"):
        engine.send("name")
    engine.close()
    assert not engine.alive


def test_a_command_that_cannot_start_is_one_clear_line():
    with pytest.raises(EngineError) as error:
        EngineProcess("no-such-engine", "A")
    assert str(error.value) == "cannot start A ('no-such-engine'): No such file or directory"
    with pytest.raises(EngineError, match="cannot start A"):
        EngineProcess("'unbalanced", "A")
    with pytest.raises(EngineError, match="cannot start A"):
        start("no-such-engine", "A", subprocess.DEVNULL, None)
    for begin in (EngineProcess, lambda command, name: start(command, name, None, None)):
        with pytest.raises(EngineError, match="cannot start A: the command is empty"):
            begin("  ", "A")


def line(text: str):
    return gtp.parse_line(text.encode())


def test_search_timeouts_scale_with_the_limits_set():
    limits = SearchLimits()
    default = 60.0
    assert limits.reply_timeout(line("name"), default) == default
    assert limits.reply_timeout(None, default) == default  # a blank or comment line
    assert limits.think_ms() == DEFAULT_MOVETIME_MS  # the engine's own default, imported
    assert limits.reply_timeout(line("genmove"), default) == default  # 1 s by default: 2 s + margin
    for text in ("perft 12", "analyze live"):
        assert limits.reply_timeout(line(text), default) == client.UNBOUNDED_SEARCH_TIMEOUT
    assert limits.reply_timeout(line("analyze 100000"), default) >= 200
    limits = limits.with_limit(Limit(time_ms=300_000))
    assert limits.reply_timeout(line("genmove w"), default) >= 600
    assert limits.reply_timeout(line("3 reg_genmove # an id and a comment"), default) >= 600
    assert limits.reply_timeout(line("analyze 1000"), default) == default
    limits = limits.with_clock(120_000, 1000)  # the clock is smaller than movetime
    assert 242 <= limits.reply_timeout(line("genmove"), default) < 600
    limits = limits.with_clock(None).with_limit(Limit(time_ms=0, depth=30))  # only a depth
    assert limits.reply_timeout(line("genmove"), default) == client.UNBOUNDED_SEARCH_TIMEOUT
    assert limits.with_limit(Limit(depth=0)).think_ms() == DEFAULT_MOVETIME_MS
    assert limits.with_clock(1_000_000).think_ms() == 1_000_000


def test_a_limit_is_its_bounds_and_writes_only_those():
    assert Limit().commands() == []
    assert Limit(time_ms=500, depth=0).commands() == ["option movetime 500", "option depth 0"]
    assert Limit(nodes=20_000).commands() == ["option nodes 20000"]
    assert SearchLimits().with_limit(Limit(depth=7)).with_limit(Limit(time_ms=50)) == \
        SearchLimits(time_ms=50, depth=7)


def test_a_callers_own_limit_line_leaves_that_limit_unknown():
    limits = SearchLimits().with_limit(Limit(time_ms=500_000)).with_clock(60_000, 1000)
    assert limits.after_line(line("option hash 64")) == limits  # not a limit
    unknown = limits.after_line(line("7 option MoveTime 5 # read as the engine reads it"))
    assert unknown.time_ms == UNKNOWN and unknown.think_ms() == 61_000  # the clock still bounds it
    assert unknown.after_line(line("time_left w 10 0")).think_ms() is None  # nothing known bounds it
    assert SearchLimits().after_line(line("option nodes 9")).think_ms() is None


def test_the_client_writes_its_limits_and_keeps_what_the_engine_accepted(fake):
    with EngineProcess(fake, "fake") as engine:
        engine.set_limit(Limit(time_ms=500_000, depth=0))
        engine.set_clock(60_000, 1000)
        assert engine.core.limits == SearchLimits(time_ms=500_000, clock_ms=61_000)
        engine.send("option movetime bad")  # refused: nothing changes
        assert engine.core.limits.time_ms == 500_000
        engine.ask("7 option movetime 5 # an id and a comment")
        assert engine.core.limits.time_ms == UNKNOWN
        engine.set_clock(None)
        assert engine.core.limits.clock_ms is None


def test_a_refused_limit_names_its_command_and_is_not_kept():
    with EngineProcess(DEFAULT_ENGINE, "engine") as engine:
        engine.set_limit(Limit(time_ms=20))
        assert engine.ask("genmove")
        with pytest.raises(EngineRefused, match="engine refused 'option depth 100'"):
            engine.set_limit(Limit(depth=100))
        assert engine.core.limits == SearchLimits(time_ms=20)


def test_a_child_gets_exactly_our_environment(fake, tmp_path, monkeypatch):
    mine = str(tmp_path / "my-modules")
    monkeypatch.setenv("PYTHONPATH", mine)
    with EngineProcess(fake, "fake") as engine:
        seen = json.loads(engine.ask("env"))
    assert seen["PYTHONPATH"] == mine
    assert str(REPO) not in seen["path"]
    monkeypatch.delenv("PYTHONPATH")
    proc = start(fake, "fake", subprocess.DEVNULL, None)  # the line-protocol players' start
    out, _ = proc.communicate("env\n", timeout=60)
    stop_popen(proc)
    seen = json.loads(out.split("\n")[0][2:])
    assert seen["PYTHONPATH"] is None and str(REPO) not in seen["path"]
    assert command_env(["/other/venv/bin/python", "-m", "engine"]) is None


def test_only_the_default_engine_gets_this_checkout_and_runs_from_anywhere(tmp_path):
    env = command_env(DEFAULT_ENGINE_ARGV)
    assert env["PYTHONPATH"].split(os.pathsep)[0] == str(REPO)
    with EngineProcess(DEFAULT_ENGINE, "engine", cwd=tmp_path) as engine:
        assert engine.ask("name") == "Gipfbot"
        with open(f"/proc/{engine.pid}/environ", "rb") as f:
            environ = f.read().decode().split("\0")
    assert f"PYTHONPATH={env['PYTHONPATH']}" in environ


IMPOSTOR = """\
import sys
for line in sys.stdin:
    sys.stdout.write("= Impostor\\n\\n")
    sys.stdout.flush()
"""


def impostor_checkout(tmp_path):
    """A folder holding an `engine` package of its own, as a source checkout does."""
    package = tmp_path / "engine"
    (package / "tools").mkdir(parents=True)
    (package / "__init__.py").write_text("")
    (package / "tools" / "__init__.py").write_text("")
    (package / "__main__.py").write_text(IMPOSTOR)
    return tmp_path


def test_the_default_engine_is_this_package_even_beside_another_engine_package(tmp_path):
    folder = impostor_checkout(tmp_path)
    assert subprocess.run([PY, "-m", "engine"], cwd=folder, input="name\n", text=True,
                          capture_output=True, timeout=60).stdout == "= Impostor\n\n"
    with EngineProcess(cwd=folder) as engine:
        assert engine.ask("name") == "Gipfbot"


def test_an_installed_tool_started_in_a_checkout_runs_the_installed_engine(tmp_path):
    # An installed command's interpreter has its own package and not the working folder on its
    # path (-P and PYTHONPATH stand for that here); its default engine must be that package too.
    folder = impostor_checkout(tmp_path)
    (folder / "name.tst").write_text("1 name\n#? [Gipfbot]\n")
    env = dict(os.environ, PYTHONPATH=str(REPO))
    done = subprocess.run([PY, "-P", "-m", "engine.tools.regress", "name.tst"], cwd=folder, env=env,
                          capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stdout + done.stderr
    assert "1 tests, 0 unexpected failures" in done.stdout


def test_the_asyncio_core_bounds_its_waits_too(tmp_path):
    path = tmp_path / "silent.py"
    path.write_text(SILENT)

    async def main():
        engine = AsyncEngineProcess([PY, str(path)], name="silent")
        await engine.start()
        with pytest.raises(EngineTimeout):
            await engine.ask("status", timeout=0.3)
        assert not engine.alive
        await engine.close()
        return engine.proc.returncode

    assert asyncio.run(main()) is not None


def test_an_abandoned_reply_makes_later_ones_refused_and_close_still_ends_it(fake, quick_close):
    async def main():
        engine = AsyncEngineProcess([*fake.split(), "--stubborn"], name="stubborn")
        await engine.start()
        await engine.ask("name")
        search = asyncio.create_task(engine.ask("hang"))
        await asyncio.sleep(0.2)
        search.cancel()              # as a Ctrl-C in a tool does to its waiting call
        await asyncio.gather(search, return_exceptions=True)
        with pytest.raises(EngineDied, match="the reply to 'hang' was abandoned"):
            await engine.ask("name")
        await engine.close()
        return engine.alive

    assert asyncio.run(main()) is False


# --- a program using the client, stopped in the ways a user stops a tool ---------------------

DRIVER = textwrap.dedent("""\
    import sys, threading
    sys.path.insert(0, {repo!r})
    from engine.client import EngineProcess, children, install_cleanup
    children.QUIT_WAIT = children.TERMINATE_WAIT = 0.3
    install_cleanup()  # in the main thread, as every tool does first (engine.tools.cli.guarded)
    mode, fake = sys.argv[1], sys.argv[2]
    engines = []
    def start_engines():
        for name in ("a", "b"):
            engines.append(EngineProcess(f"{{sys.executable}} {{fake}} --stubborn", name))
            engines[-1].ask("child")
    if mode == "thread":   # engines started by a worker thread, as the match tool does
        worker = threading.Thread(target=start_engines)
        worker.start()
        worker.join()
    else:
        start_engines()
    if mode in ("exit", "error"):
        print("ready", flush=True)
        sys.stdin.readline()   # go on when told
        if mode == "error":
            raise RuntimeError("a bug")
        sys.exit(0)
    if mode == "catch-once":  # the first Ctrl-C is the program's: it keeps using its engines
        try:
            print("ready", flush=True)
            engines[0].send("hang", timeout=600)
        except KeyboardInterrupt:
            print("first", flush=True)
            engines[1].send("hang", timeout=600)
    elif mode == "finally":  # as regress does: close the engines on the way out
        try:
            print("ready", flush=True)
            engines[0].send("hang", timeout=600)
        finally:
            for engine in engines:
                engine.close()
    else:
        print("ready", flush=True)
        engines[0].send("hang", timeout=600)
""")


@pytest.fixture
def driver(tmp_path, fake, mark):
    path = tmp_path / "driver.py"
    path.write_text(DRIVER.format(repo=str(REPO)))
    fake_path = fake.split(" ", 1)[1]
    started = []

    def run(mode: str) -> subprocess.Popen:
        proc = subprocess.Popen([PY, str(path), mode, fake_path], stdin=subprocess.PIPE,
                                stdout=subprocess.PIPE,
                                stderr=subprocess.PIPE, text=True, start_new_session=True,
                                preexec_fn=sigint_as_in_a_terminal)
        started.append(proc)
        assert proc.stdout.readline() == "ready\n", proc.stderr.read()
        assert len(marked(mark, frozenset([proc.pid]))) == 4  # two engines, two grandchildren
        return proc

    yield run
    for proc in started:
        if proc.poll() is None:
            proc.kill()
        proc.communicate(timeout=60)
    for pid in marked(mark):
        os.kill(pid, signal.SIGKILL)


@pytest.mark.parametrize("mode", ["exit", "error"])
def test_no_process_is_left_after_a_normal_or_an_error_exit(driver, mark, mode):
    proc = driver(mode)
    _, err = proc.communicate("go\n", timeout=60)
    assert proc.returncode == (0 if mode == "exit" else 1), err
    wait_until(lambda: not marked(mark), "no process is left")


@pytest.mark.parametrize("mode", ["main", "thread"])
def test_no_process_is_left_after_sigterm(driver, mark, mode):
    proc = driver(mode)
    proc.send_signal(signal.SIGTERM)
    proc.communicate(timeout=60)
    assert proc.returncode == -signal.SIGTERM
    wait_until(lambda: not marked(mark), "no process is left")


def test_the_first_ctrl_c_is_the_programs_and_the_second_ends_every_engine(driver, mark):
    proc = driver("catch-once")
    proc.send_signal(signal.SIGINT)
    assert proc.stdout.readline() == "first\n"
    assert len(marked(mark, frozenset([proc.pid]))) == 4  # still in use after the first
    proc.send_signal(signal.SIGINT)
    proc.communicate(timeout=60)
    assert proc.returncode != 0
    wait_until(lambda: not marked(mark), "no process is left")


def test_ctrl_c_during_a_search_that_ignores_quit_ends_it(driver, mark):
    proc = driver("finally")  # the engines ignore quit and SIGTERM, as a perft 12 in C would
    proc.send_signal(signal.SIGINT)
    _, err = proc.communicate(timeout=60)
    assert "KeyboardInterrupt" in err
    wait_until(lambda: not marked(mark), "no process is left")


HAND_BUILT_TZAAR = (
    "(;FF[TZAAR]VA[RANDOM]PB[Built]PW[Hand]"
    "POS[cBbCbcBCCBBcabaBbCcCbbbCCACAcbcbcBccBCCBaAAacCCcaacCACcCccAB]"
    "SO[https://www.littlegolem.net];W[npmq];B[prqq-kplp];W[smrn-pqqp];B[lqmp-lpmp])")


def test_a_review_stopped_by_sigterm_leaves_no_engine_searching(mark):
    """As `timeout 5 scripts/review ...` does, once both engines search."""
    proc = subprocess.Popen([PY, str(REPO / "scripts" / "review"), "--movetime", "60000",
                             "--jobs", "2", "-"], stdin=subprocess.PIPE,
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, text=True,
                            cwd=REPO, start_new_session=True)
    proc.stdin.write(HAND_BUILT_TZAAR)
    proc.stdin.close()
    wait_until(lambda: len(marked(mark, frozenset([proc.pid]))) >= 2 or proc.poll() is not None,
               "both review engines started", limit=120)
    assert proc.poll() is None
    proc.send_signal(signal.SIGTERM)
    assert proc.wait(timeout=60) == -signal.SIGTERM
    wait_until(lambda: not marked(mark), "no process is left")


def test_a_codecup_player_line_is_bounded(tmp_path):
    script = tmp_path / "flood.py"
    script.write_text("import sys\nsys.stdout.write('a1\\n' + 'x' * 10_000_000 + '\\n')\nsys.stdout.flush()\n"
                      "sys.stdin.read()\n")
    player = LinePlayer(f"{sys.executable} {script}", "flooder")
    try:
        assert player.receive(30) == "a1"
        with pytest.raises(EngineError, match=f"longer than {PLAYER_LINE_LIMIT} characters"):
            player.receive(30)
    finally:
        player.close(timeout=5)


def test_importing_the_client_installs_no_signal_handler():
    script = ("import signal; before = [signal.getsignal(s) for s in (signal.SIGINT, signal.SIGTERM)]; "
              "import engine.client, engine.tools.cli, engine.gui.session; "
              "assert [signal.getsignal(s) for s in (signal.SIGINT, signal.SIGTERM)] == before")
    done = subprocess.run([PY, "-c", script], cwd=str(REPO), capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr


def test_the_example_of_docs_client_md_runs_as_written():
    doc = (REPO / "docs" / "client.md").read_text(encoding="utf-8")
    blocks = re.findall(r"```python\n(.*?)```", doc, flags=re.S)
    assert len(blocks) == 1
    found: dict = {}
    exec(compile(blocks[0], "docs/client.md", "exec"), found)  # noqa: S102 - the document's own example
    assert found["ok"] is False and found["text"] == "it is black's turn, not white's" and found["move"]
    assert int(found["count"]) > 0
