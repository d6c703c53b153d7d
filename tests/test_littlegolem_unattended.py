"""gipf-littlegolem left alone for a season: two passes on one state file, resigning after
failed posts, invitations listed twice, max_games, a pass killed at any point, owner messages
from hostile pages, and state files that are links, unwritable or malformed."""
from __future__ import annotations

import json
import os
import re
import signal
import subprocess
import sys

import pytest
from littlegolem_standin import (
    PASSWORD,
    REPO,
    USER,
    env_with_password,
    run_main,
    serve,
    start_runner,
    stop,
    wait_for,
    write_config,
)
from test_littlegolem_docs import documented_lock_line, lock_line_masked

from engine.review.judge import PROVEN_MIN
from engine.tools import littlegolem
from engine.tools.littlegolem import state as state_module
from engine.tools.littlegolem.moves import Player
from engine.tools.littlegolem.owner import Owner
from engine.tools.littlegolem.state import PostedMoves

ANSWERS = ("GET", "/Invitation.action")


@pytest.fixture
def site():
    stand_in, server = serve()
    stand_in.reply = False
    yield stand_in
    server.shutdown()
    server.server_close()


def answers_sent(site) -> int:
    return site.requests.count(ANSWERS)


# --- one pass per state file ------------------------------------------------------------
def test_a_second_bot_on_the_same_state_file_exits_at_once_naming_the_first(site, tmp_path):
    site.add(301, "tzaar", moves=3, ours=1, seed=301)
    config = write_config(tmp_path, site, poll_interval=0.2)
    first = start_runner(config)
    try:
        wait_for(lambda: site.accepted(), 120, "the first bot's post")
        second = start_runner(config, "--once")
        out, err = second.communicate(timeout=60)
        assert second.returncode == 1 and out == ""
        assert err.count("\n") == 1 and f"pid {first.pid}" in err and "--wait" in err, err
        assert lock_line_masked(err.strip()) == documented_lock_line()
        interrupted = start_runner(config, "--once", "--wait")
        wait_for(lambda: blocked_on_a_lock(interrupted.pid), 60, "the wait for the lock")
        interrupted.send_signal(signal.SIGINT)  # Ctrl-C while it waits
        out, err = interrupted.communicate(timeout=60)
        assert interrupted.returncode == 130 and "Traceback" not in err
        assert err.splitlines()[1:] == ["gipf-littlegolem: interrupted while waiting for the "
                                        "state file"]
        waiting = start_runner(config, "--once", "--wait")
        wait_for(lambda: blocked_on_a_lock(waiting.pid), 60, "the wait for the lock")
    finally:
        status, _, first_err = stop(first)
    assert status == 0, first_err
    out, err = waiting.communicate(timeout=120)
    assert waiting.returncode == 0, err
    assert "waiting for pid" in err and "Traceback" not in err
    plies = [(p.gid, p.ply) for p in site.accepted()]
    assert len(plies) == len(set(plies)) and [p for p in site.posts if p.status != 200] == []


def blocked_on_a_lock(pid: int) -> bool:
    """Whether the process waits for a flock (a '->' line of /proc/locks names the waiters)."""
    with open("/proc/locks", encoding="ascii") as locks:
        return any("->" in line and f" {pid} " in line for line in locks)


# --- resigning counts moves ----------------------------------------------------------
def test_failed_posts_of_one_move_count_once_toward_resigning(site, tmp_path, monkeypatch,
                                                               capsys):
    site.add(311, "tzaar", moves=5, ours=1, seed=311)
    site.inject("POST", "/jsp/game/game.jsp", "status", 500, times=2)
    config = write_config(tmp_path, site, resign=True, resign_score=1_000_000, resign_moves=3,
                          engine_setup=["option depth 1"])
    for _ in range(3):  # the same move thought three times: two posts answered HTTP 500
        run_main(monkeypatch, capsys, "--config", str(config), "--once")
    assert len(site.tries) == 3 and [p.move for p in site.accepted()] != ["resign"]
    assert len(site.accepted()) == 1
    state = json.loads((tmp_path / "state.json").read_text())
    assert state["games"]["311"]["low_plies"] == [site.accepted()[0].ply]


def test_a_proven_loss_resigns_at_once():
    settings = littlegolem.Settings(user=USER, resign=True, resign_moves=5)
    player = Player(settings, None, PostedMoves(None), Owner(None, "", dry_run=True),
                    dry_run=True, stopping=None, phases=[], print_move=print)
    assert player._resigns(7, 10, -PROVEN_MIN) is True
    assert player._resigns(8, 10, -5000) is False


# --- invitations answered once and rightly ----------------------------------------------
def test_an_invitation_listed_twice_is_answered_once(site, tmp_path, monkeypatch, capsys):
    site.invite(81009, "alice", "Dvonn", shown=["081009", "81009"])
    site.invite(702, "bob", "Tzaar", shown=["702", "702"])
    config = write_config(tmp_path, site)
    status, _, err = run_main(monkeypatch, capsys, "--config", str(config), "--once")
    assert status == 0, err
    assert answers_sent(site) == 2 and sorted(site.answers) == [(702, "accept"), (81009, "accept")]
    assert "lists invitation 81009 more than once" in err
    assert "lists invitation 702 more than once" in err


def test_answered_invitations_are_kept_while_the_page_lists_them(site, tmp_path, monkeypatch,
                                                                 capsys):
    for n in range(1005):
        site.invite(100_000 + n, f"p{n}", "Chess")
    site.keep_answered = True  # the page goes on listing them
    config = write_config(tmp_path, site)
    status, _, err = run_main(monkeypatch, capsys, "--config", str(config), "--once")
    assert status == 0, err
    assert answers_sent(site) == 1005
    site.invite(999_999, "new", "Chess")
    status, _, err = run_main(monkeypatch, capsys, "--config", str(config), "--once")
    assert status == 0, err
    assert answers_sent(site) == 1006  # the new one only


# --- max_games --------------------------------------------------------------------------
def test_a_success_page_with_refusal_words_is_an_answer_taken(site, tmp_path, monkeypatch,
                                                                capsys):
    for n in range(6):
        site.invite(400 + n, f"p{n}", "Dvonn")
    site.max_games = 2
    site.inject("GET", "/Invitation.action", "wordy after", times=6)
    config = write_config(tmp_path, site, max_games=2, owner="4242")
    status, _, err = run_main(monkeypatch, capsys, "--config", str(config), "--once")
    assert status == 0, err
    assert [a for _, a in site.answers].count("accept") == 2 and site.over_cap == []
    assert len(site.answers) == 6 and len(site.messages) == 6


def test_an_accept_answered_http_500_counts_as_a_game(site, tmp_path, monkeypatch, capsys):
    for n in range(3):
        site.invite(410 + n, f"p{n}", "Tzaar")
    site.max_games = 1
    site.inject("GET", "/Invitation.action", "status after", 500)  # applied, then 500
    config = write_config(tmp_path, site, max_games=1)
    for _ in range(2):
        status, _, err = run_main(monkeypatch, capsys, "--config", str(config), "--once")
    assert site.answers == [(410, "accept"), (411, "refuse"), (412, "refuse")]
    assert site.over_cap == [] and answers_sent(site) == 3


def test_accepted_games_not_yet_listed_count(site, tmp_path, monkeypatch, capsys):
    site.invite(420, "alice", "Dvonn")
    site.invite(421, "bob", "Tzaar")
    site.max_games = 2
    config = write_config(tmp_path, site, max_games=2)
    run_main(monkeypatch, capsys, "--config", str(config), "--once")
    assert [a for _, a in site.answers] == ["accept", "accept"]
    site.unlisted = set(site.games)  # the list does not show the new games yet
    site.invite(422, "carol", "Dvonn")
    status, _, err = run_main(monkeypatch, capsys, "--config", str(config), "--once")
    assert status == 0, err
    assert site.answers[-1] == (422, "refuse") and site.over_cap == []
    assert "2 games in progress (max_games 2)" in err


# --- a pass killed at any point ---------------------------------------------------------
CRASH = ("import os, sys\n"
         "from engine.tools.littlegolem import site\n"
         "calls = []\n"
         "original = site.Site.{method}\n"
         "def die(*args):\n"
         "    calls.append(1)\n"
         "    if len(calls) >= {nth}:\n"
         "        os._exit(137)\n"
         "    return original(*args)\n"
         "site.Site.{method} = die\n"
         "from engine.tools.littlegolem import main\n"
         "sys.exit(main(sys.argv[1:]))\n")


def crash_in(method: str, nth: int, config) -> None:
    """A --once pass killed (os._exit) at the nth call of the Site method."""
    code = CRASH.format(method=method, nth=nth)
    done = subprocess.run([sys.executable, "-c", code, "--config",
                           str(config), "--once"], cwd=REPO, env=env_with_password(),
                          capture_output=True, text=True, timeout=120)
    assert done.returncode == 137, done.stderr


def test_a_pass_killed_before_its_answer_went_out_answers_at_the_next(site, tmp_path,
                                                                       monkeypatch, capsys):
    site.invite(431, "alice", "Dvonn")
    config = write_config(tmp_path, site, owner="4242")
    crash_in("answer_invitation", 1, config)  # killed once "answering" is marked
    assert site.answers == []
    leftover = tmp_path / ".state.json.k1ll3d"  # a temporary file of a killed write
    leftover.write_text("{")
    status, _, err = run_main(monkeypatch, capsys, "--config", str(config), "--once")
    assert status == 0, err
    assert site.answers == [(431, "accept")] and answers_sent(site) == 1
    assert "did not reach the site" in err and not leftover.exists()
    assert [t for _, t, _ in site.messages] == ["Gipfbot accepted Dvonn from alice"]


def test_a_pass_killed_after_its_answer_settles_it_at_the_next(site, tmp_path, monkeypatch,
                                                                capsys):
    site.invite(432, "alice", "Dvonn")
    config = write_config(tmp_path, site, owner="4242")
    crash_in("invitation_page", 2, config)  # killed at the page read after the answer
    assert site.answers == [(432, "accept")]
    status, _, err = run_main(monkeypatch, capsys, "--config", str(config), "--once")
    assert status == 0, err
    assert answers_sent(site) == 1 and "invitation 432 from alice (Dvonn): accepted" in err
    assert [t for _, t, _ in site.messages] == ["Gipfbot accepted Dvonn from alice"]


# --- owner messages ---------------------------------------------------------------------
def test_owner_messages_are_short_plain_and_few(site, tmp_path, monkeypatch, capsys):
    site.invite(441, "x" * 1_000_000, "Dvonn")
    site.invite(442, "bob", "Tzaar\r\n" + "y" * 2_000_000)
    for n in range(30):
        site.invite(450 + n, f"p{n}", "Chess")
    config = write_config(tmp_path, site, owner="4242", max_messages=5)
    status, _, err = run_main(monkeypatch, capsys, "--config", str(config), "--once")
    assert status == 0, err
    assert len(site.answers) == 32 and len(site.messages) == 6
    for _, title, text in site.messages:
        assert len(title) <= 100 and len(text) <= 2000 and "\r" not in title + text
    assert site.messages[-1][1] == "Gipfbot: 27 more event(s)"
    assert len(err) < 50_000


# --- the state file ---------------------------------------------------------------------
def test_a_linked_state_file_writes_its_target(site, tmp_path, monkeypatch, capsys):
    site.add(461, "tzaar", moves=3, ours=1, seed=461)
    target = tmp_path / "kept" / "real.json"
    target.parent.mkdir()
    target.write_text('{"format": 2, "games": {}, "invitations": {}, "playing": {}}')
    link = tmp_path / "state.json"
    link.symlink_to(target)
    config = write_config(tmp_path, site)
    status, _, err = run_main(monkeypatch, capsys, "--config", str(config), "--once")
    assert status == 0, err
    assert link.is_symlink() and "461" in json.loads(target.read_text())["games"]


def test_a_state_that_cannot_be_written_ends_the_run_with_status_1(site, tmp_path,
                                                                    monkeypatch, capsys):
    site.invite(471, "alice", "Dvonn")
    blocker = tmp_path / "a-file"
    blocker.write_text("")
    config = write_config(tmp_path, site, state_file=str(blocker / "state.json"))
    status, _, err = run_main(monkeypatch, capsys, "--config", str(config), "--once")
    assert status == 1 and err.count("\n") == 1 and "state file" in err
    assert site.answers == []
    # a write that fails in the middle of a pass: one line, status 1, nothing more sent
    config = write_config(tmp_path, site)
    monkeypatch.setattr(state_module, "os", NoRename())
    status, _, err = run_main(monkeypatch, capsys, "--config", str(config), "--once")
    assert status == 1 and site.answers == [] and err.count("cannot write the state file") == 1


class NoRename:
    """The os module to the state file's writer, but a disk that is full at the rename."""

    def __getattr__(self, name):
        return getattr(os, name)

    @staticmethod
    def replace(*args):
        raise OSError(28, "No space left on device")


def test_a_malformed_entry_is_said_once_and_set_aside(site, tmp_path, monkeypatch, capsys):
    site.add(481, "tzaar", moves=3, ours=1, seed=481)
    state = tmp_path / "state.json"
    state.write_text(json.dumps({"format": 1, "games": {"481": {"ply": 3, "status": "posted"}},
                                 "invitations": {"9": "x"}}))
    config = write_config(tmp_path, site)
    status, _, err = run_main(monkeypatch, capsys, "--config", str(config), "--once")
    assert status == 0, err
    assert err.count("set aside") == 2 and "lacks a valid move" in err
    assert [p.gid for p in site.accepted()] == [481]
    saved = json.loads(state.read_text())
    assert saved["format"] == 2 and set(saved["set_aside"]) == {"games/481", "invitations/9"}
    status, _, err = run_main(monkeypatch, capsys, "--config", str(config), "--once")
    assert status == 0 and "set aside" not in err


# --- operators --------------------------------------------------------------------------
def test_a_login_refused_with_a_cookie_says_login_failed(site, tmp_path, monkeypatch, capsys):
    site.cookie_on_failure = True
    config = write_config(tmp_path, site)
    status, _, err = run_main(monkeypatch, capsys, "--config", str(config), "--once",
                              password="not-" + PASSWORD)
    assert status == 1 and "login failed" in err and "cannot list the games" not in err


def test_the_stand_in_site_is_a_command_an_operator_can_try_the_bot_against(tmp_path):
    env = env_with_password()
    server = subprocess.Popen([sys.executable, "-m", "engine.tools.littlegolem.standin"],
                              cwd=REPO, env=env, stdout=subprocess.PIPE, text=True)
    try:
        line = server.stdout.readline()
        assert line.startswith("a stand-in LittleGolem site at http://127.0.0.1:"), line
        base = re.search(r"http://127\.0\.0\.1:\d+", line).group(0)
        printed = subprocess.run([sys.executable, "-m", "engine.tools.littlegolem",
                                  "--print-config"], cwd=REPO, env=env, capture_output=True,
                                 text=True, timeout=60).stdout
        config = tmp_path / "config.toml"
        config.write_text(printed.replace('user = ""', f'user = "{USER}"')
                          .replace('"https://www.littlegolem.net"', f'"{base}"'))
        for flag in ("--dry-run", "--once"):
            done = subprocess.run([sys.executable, "-m", "engine.tools.littlegolem", "--config",
                                   str(config), "--movetime", "100", "--state",
                                   str(tmp_path / "state.json"), flag], cwd=REPO, env=env,
                                  capture_output=True, text=True, timeout=240)
            assert done.returncode == 0, done.stderr[-2000:]
            assert "Traceback" not in done.stderr
        assert "accepted: dvonn is played" in done.stderr and "posted" in done.stderr
    finally:
        server.terminate()
        server.communicate(timeout=30)
    assert server.returncode == 0
