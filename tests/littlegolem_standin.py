"""Helpers for gipf-littlegolem's tests: the stand-in site (engine/tools/littlegolem/standin,
which ships with the package) and ways to run the bot against it."""
from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

from conftest import sigint_as_in_a_terminal

from engine.tools import littlegolem
from engine.tools.littlegolem.standin import (  # noqa: F401 - the tests take them from here
    LOGIN_PAGE,
    OTHER_PAGE,
    PASSWORD,
    REFUSAL_PAGE,
    USER,
    WORDY_PAGE,
    SiteGame,
    StandIn,
    dvonn_from_site,
    serve,
)

REPO = Path(__file__).resolve().parents[1]
FAST_ENGINE = ["option player random"]  # instant, legal moves: the runner is under test
SLOW = 3.5  # s, an answer slower than the runner's http_timeout (2 s) in these tests


# --- running the runner -----------------------------------------------------
def write_config(tmp_path: Path, site: StandIn, **extra) -> Path:
    values = {"base_url": site.url, "user": USER, "games": ["dvonn", "tzaar"], "movetime": 50,
              "poll_interval": 0.05, "retry_delay": 0.05, "max_backoff": 0.2,
              "http_timeout": 2.0, "workers": 2, "engine_setup": FAST_ENGINE,
              "state_file": str(tmp_path / "state.json")}
    values.update(extra)
    lines = [f"{key} = {json.dumps(value)}" for key, value in values.items()]
    path = tmp_path / "bot.toml"
    path.write_text("\n".join(lines) + "\n")
    return path


def env_with_password(password: str = PASSWORD) -> dict:
    env = dict(os.environ)
    env["LITTLEGOLEM_PASSWORD"] = password
    env["PYTHONPATH"] = os.pathsep.join(filter(None, [str(REPO), env.get("PYTHONPATH")]))
    return env


def run_main(monkeypatch, capsys, *argv: str, password: str = PASSWORD):
    monkeypatch.setenv("LITTLEGOLEM_PASSWORD", password)
    status = littlegolem.main(list(argv))
    out, err = capsys.readouterr()
    return status, out, err


def start_runner(config: Path, *extra: str, password: str = PASSWORD) -> subprocess.Popen:
    return subprocess.Popen([sys.executable, "-m", "engine.tools.littlegolem", "--config",
                             str(config), *extra], cwd=REPO, env=env_with_password(password),
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                            preexec_fn=sigint_as_in_a_terminal)


def wait_for(condition, timeout: float = 180.0, what: str = "the condition") -> None:
    end = time.monotonic() + timeout
    while not condition():
        if time.monotonic() > end:
            raise AssertionError(f"gave up waiting for {what}")
        time.sleep(0.05)


def stop(proc: subprocess.Popen) -> tuple[int, str, str]:
    proc.send_signal(signal.SIGTERM)
    out, err = proc.communicate(timeout=60)
    return proc.returncode, out, err


def pid_alive(pid: int) -> bool:
    try:
        status = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return False
    return status.rsplit(")", 1)[1].split()[0] != "Z"


def assert_each_accepted_post_legal_and_once(site: StandIn) -> None:
    assert [p for p in site.posts if p.status in (400, 409)] == [], "illegal or duplicate posts"
    plies = [(p.gid, p.ply) for p in site.accepted()]
    assert len(plies) == len(set(plies))
