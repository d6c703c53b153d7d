"""docs/littlegolem.md's examples replayed: its configuration file is one the bot takes, and
the log of its invitations pass is what a pass against the same site writes."""
from __future__ import annotations

import json
import re
import shlex
import subprocess
import sys

from littlegolem_standin import PASSWORD, REPO, USER, env_with_password, run_main, serve, write_config

from engine.tools import littlegolem
from engine.tools.littlegolem import config as bot_config
from engine.tools.littlegolem.state import FORMAT, PostedMoves

DOC = REPO / "docs" / "littlegolem.md"


def blocks(kind: str) -> list[str]:
    """The document's fenced blocks of one kind ('' for plain ones)."""
    found = re.findall(r"^```(\w*)\n(.*?)^```$", DOC.read_text(encoding="utf-8"), re.S | re.M)
    return [text for tag, text in found if tag == kind]


def test_the_documented_configuration_is_taken(tmp_path, monkeypatch):
    (text,) = [b for b in blocks("toml") if "user = " in b]
    path = tmp_path / "config.toml"
    path.write_text(text)
    values = bot_config.read_config(str(path))
    assert set(values) <= set(bot_config.KEYS)
    monkeypatch.setenv("LITTLEGOLEM_PASSWORD", PASSWORD)
    args = bot_config.parse_args(["--config", str(path)], "")
    settings = bot_config.settings_from(args)
    assert settings.user == "gipfbot" and settings.resign and settings.owner == "12345"


def masked(line: str) -> str:
    """A log line without what differs between runs: time, port, pids, moves."""
    return unstamped(re.sub(r"^\S+ \S+ ", "", line))


def unstamped(line: str) -> str:
    """A line without what differs between runs but its time: port, pids, moves."""
    line = re.sub(r"127\.0\.0\.1:\d+", "127.0.0.1:PORT", line)
    line = re.sub(r"pid \d+", "pid N", line)
    line = re.sub(r"posted \S+", "posted MOVE", line)
    return re.sub(r"engine \d", "engine N", line)


def test_the_documented_invitations_pass_replays(tmp_path, monkeypatch, capsys):
    (text,) = [b for b in blocks("") if "invitation(s):" in b]
    site, server = serve()
    try:
        site.reply = False
        site.add(2601130, "dvonn", moves=12, ours=0, seed=51, opponent="Xander")
        site.add(2601131, "tzaar", moves=3, ours=1, seed=52, opponent="SlowBrain")
        site.invite(81234, "alice", "Dvonn")
        site.invite(81235, "bob", "Chess")
        site.invite(81236, "carol", "Tzaar")
        config = write_config(tmp_path, site, owner="4242", engine_setup=["option depth 3"],
                              movetime=1000)
        status, _, err = run_main(monkeypatch, capsys, "--config", str(config), "--once")
    finally:
        server.shutdown()
        server.server_close()
    assert status == 0, err
    ran = {masked(line) for line in err.splitlines()}
    for line in text.splitlines():
        assert masked(line) in ran, (line, err)
    assert USER in err


def test_the_documented_dry_run_replays(tmp_path, monkeypatch, capsys):
    (text,) = [b for b in blocks("") if "--dry-run --movetime" in b]
    shown = [line.split() for line in text.splitlines()[1:]]
    site, server = serve()
    try:
        for (gid, move), seed in zip(shown, (1, 2, 3)):
            kind = "tzaar" if "-" in move else "dvonn"
            site.add(int(gid), kind, moves=12 if kind == "tzaar" or len(move) == 2 else 60,
                     ours=0, seed=seed)
        config = write_config(tmp_path, site, engine_setup=["option depth 2"])
        status, out, err = run_main(monkeypatch, capsys, "--config", str(config), "--dry-run",
                                    "--movetime", "1000")
    finally:
        server.shutdown()
        server.server_close()
    assert status == 0, err
    printed = sorted(line.split() for line in out.splitlines())
    assert [gid for gid, _ in printed] == sorted(gid for gid, _ in shown)
    forms = {"dvonn": r"[a-k][a-e]|([a-k][a-e]){2}|pass", "tzaar": r"[k-s]{4}(-([k-s]{4}|pass))?"}
    for gid, move in printed:
        assert re.fullmatch(forms[site.games[int(gid)].kind], move), (gid, move)
    assert site.posts == []


def test_the_documented_state_file_is_one_the_bot_reads(tmp_path):
    (text,) = [b for b in blocks("json") if '"format"' in b]
    path = tmp_path / "state.json"
    path.write_text(text)
    state = PostedMoves(path)
    assert state.problems == [] and state.entry(2552914)["move"] == "mrms-rmqm"
    assert json.loads(text)["format"] == FORMAT
    assert state.invitation("81234")["status"] == "accepted"


def test_the_documented_stand_in_session_replays(tmp_path, monkeypatch, capsys):
    (text,) = [b for b in blocks("") if "-m engine.tools.littlegolem.standin" in b]
    (tries,) = [b for b in blocks("") if "--dry-run" in b and "LITTLEGOLEM_PASSWORD=" in b]
    command, shown = text.splitlines()
    server = subprocess.Popen(shlex.split(command[2:].replace("python3", sys.executable, 1)),
                              cwd=REPO, env=env_with_password(), stdout=subprocess.PIPE, text=True)
    try:
        printed = server.stdout.readline().strip()
        assert unstamped(printed) == unstamped(shown)
        port = re.search(r"127\.0\.0\.1:(\d+)", printed).group(1)
        monkeypatch.chdir(tmp_path)
        for line in tries.splitlines():
            words = shlex.split(line[2:].replace("40417", port))
            monkeypatch.setenv(*words[0].split("=", 1))
            assert words[1] == "gipf-littlegolem"
            status = littlegolem.main(words[2:])
            _, err = capsys.readouterr()
            assert status == 0, err
        assert "accepted: dvonn is played" in err and "posted" in err
    finally:
        server.terminate()
        server.communicate(timeout=30)
    assert server.returncode == 0


def lock_line_masked(line: str) -> str:
    return re.sub(r"state file \S+:", "state file PATH:", unstamped(line))


def documented_lock_line() -> str:
    (text,) = [b for b in blocks("") if "is using the state file" in b]
    return lock_line_masked(text.strip())
