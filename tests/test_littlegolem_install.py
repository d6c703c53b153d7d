"""docs/littlegolem.md's service and cron line work from a venv install: the wheel is built as
a user builds it, installed into a fresh virtual environment in a home folder of its own, and
the bot is started from the systemd unit's ExecStart line (and the cron line's command) against
the stand-in site, with the engine of that install and no PATH, PYTHONPATH or checkout around.

Slow by nature (a wheel build compiles the core: about half a minute) but part of every run."""
from __future__ import annotations

import json
import os
import re
import shlex
import signal
import subprocess
import sys
import tomllib
import venv
from pathlib import Path

import pytest
from littlegolem_standin import PASSWORD, REPO, USER, pid_alive, serve, wait_for

pytest.importorskip("build", reason="the build package (test extra) builds the wheel")

DOC = (REPO / "docs" / "littlegolem.md").read_text(encoding="utf-8")


def documented(tag: str, marker: str) -> str:
    found = re.findall(r"^```(\w*)\n(.*?)^```$", DOC, re.S | re.M)
    (text,) = [body for kind, body in found if kind == tag and marker in body]
    return text


@pytest.fixture(scope="module")
def home(tmp_path_factory) -> Path:
    """A home folder with the venv the document installs into (~/gipfbot), from a new wheel."""
    out = tmp_path_factory.mktemp("wheel")
    built = subprocess.run([sys.executable, "-m", "build", "--wheel", "--outdir", str(out),
                            str(REPO)], capture_output=True, text=True, timeout=900)
    assert built.returncode == 0, built.stderr[-2000:]
    (wheel,) = out.glob("*.whl")
    home = tmp_path_factory.mktemp("home")
    venv.EnvBuilder(with_pip=True).create(home / "gipfbot")
    install = subprocess.run([str(home / "gipfbot" / "bin" / "python"), "-m", "pip", "install",
                              "-q", str(wheel)], capture_output=True, text=True, timeout=900)
    assert install.returncode == 0, install.stderr[-2000:]
    return home


def configure(home: Path, url: str) -> dict:
    """The document's configuration file, pointed at the stand-in, and its password file."""
    values = tomllib.loads(documented("toml", "user = "))
    values.update(base_url=url, user=USER, movetime=50, poll_interval=0.2, http_timeout=5,
                  engine_setup=["option depth 1"], refuse_from=[], max_games=0, owner="4242")
    folder = home / ".config" / "gipf-littlegolem"
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "config.toml").write_text("".join(f"{k} = {json.dumps(v)}\n" for k, v in values.items()))
    secret = folder / "password"
    secret.write_text(PASSWORD + "\n")
    secret.chmod(0o600)
    return values


def clean_env(home: Path) -> dict:
    env = {k: v for k, v in os.environ.items()
           if k not in ("PYTHONPATH", "PYTHONHOME", "LITTLEGOLEM_PASSWORD", "VIRTUAL_ENV")}
    env.update(HOME=str(home), PATH="/usr/bin:/bin")
    env.pop("XDG_STATE_HOME", None)
    return env


def test_the_unit_runs_the_bot_from_the_venv_and_stops_on_sigterm(home):
    unit = documented("ini", "ExecStart=")
    (exec_start,) = [line.split("=", 1)[1] for line in unit.splitlines()
                     if line.startswith("ExecStart=")]
    argv = shlex.split(exec_start.replace("%h", str(home)))
    assert Path(argv[0]).is_absolute() and argv[0] == str(home / "gipfbot" / "bin" / "gipf-littlegolem")
    site, server = serve()
    try:
        site.reply = False
        site.add(91, "dvonn", moves=6, ours=0, seed=91)
        site.add(92, "tzaar", moves=3, ours=1, seed=92)
        site.invite(93, "alice", "Dvonn")
        configure(home, site.url)
        proc = subprocess.Popen(argv, cwd=home, env=clean_env(home), stdout=subprocess.PIPE,
                                stderr=subprocess.PIPE, text=True)
        try:
            wait_for(lambda: {p.gid for p in site.accepted()} >= {91, 92, 93} or
                     proc.poll() is not None, 240, "the moves")
        finally:
            proc.send_signal(signal.SIGTERM)  # systemctl stop
            out, err = proc.communicate(timeout=60)
    finally:
        server.shutdown()
        server.server_close()
    assert proc.returncode == 0, err
    assert site.answers == [(93, "accept")] and {p.gid for p in site.accepted()} >= {91, 92, 93}
    assert "core=compiled" in err and "SIGTERM: stopping" in err and "Traceback" not in err
    pids = {int(m) for m in re.findall(r"started \(pid (\d+)\)", err)}
    for pid in pids:
        wait_for(lambda pid=pid: not pid_alive(pid), 30, "the engine's end")
    state = home / ".local" / "state" / "gipf-littlegolem" / f"{USER}.json"
    saved = json.loads(state.read_text())
    assert saved["format"] == 2 and saved["invitations"] == {}  # settled: off the page, listed


def test_the_cron_line_plays_one_pass(home):
    line = documented("", "--once 2>>").strip()
    assert "flock" not in line  # the bot's own lock keeps two passes apart
    command = line.split(None, 5)[5]  # after the five time fields
    site, server = serve()
    try:
        site.reply = False
        site.add(95, "tzaar", moves=5, ours=1, seed=95)
        configure(home, site.url)
        done = subprocess.run(["/bin/sh", "-c", command], cwd=home, env=clean_env(home),
                              capture_output=True, text=True, timeout=240)
    finally:
        server.shutdown()
        server.server_close()
    log = (home / "gipf-littlegolem.log").read_text()
    assert done.returncode == 0, log[-2000:]
    assert [p.gid for p in site.accepted()] == [95]
    assert "pass done: 1 posted" in log and "Traceback" not in log
    pids = re.findall(r"started \(pid (\d+)\)", log)
    assert pids
    for pid in pids:
        wait_for(lambda pid=pid: not pid_alive(int(pid)), 30, "the engine's end")


# What the systemd user manager honours in a unit (systemd.unit, systemd.service, systemd.exec):
# a user unit has no User= or Group=, and the system's network-online.target is not one of its
# targets, so After=/Wants= of it do nothing there.
USER_UNIT_KEYS = {"Unit": {"Description", "Documentation"},
                  "Service": {"ExecStart", "Restart", "RestartSec", "KillSignal", "TimeoutStopSec",
                              "Environment", "WorkingDirectory", "Type"},
                  "Install": {"WantedBy"}}


def test_the_user_unit_has_only_directives_a_user_unit_honours():
    unit = documented("ini", "ExecStart=")
    section = None
    for line in unit.splitlines():
        line = line.strip()
        if not line or line.startswith("#"):
            continue
        if line.startswith("["):
            section = line.strip("[]")
            assert section in USER_UNIT_KEYS, section
            continue
        key, value = line.split("=", 1)
        assert key in USER_UNIT_KEYS[section], (section, key)
        assert "network-online" not in value
    assert "WantedBy=default.target" in unit
