"""gipf-littlegolem against a stand-in LittleGolem site (tests/littlegolem_standin.py): whole
runs through faults, dry runs, the state file, the password, signals, the move notation."""
from __future__ import annotations

import json
import re
import signal
import threading
import time
from pathlib import Path

import pytest
from conftest import shared_dir
from hypothesis import given, settings
from hypothesis import strategies as st
from littlegolem_standin import (
    PASSWORD,
    SLOW,
    USER,
    SiteGame,
    assert_each_accepted_post_legal_and_once,
    dvonn_from_site,
    pid_alive,
    run_main,
    serve,
    start_runner,
    stop,
    wait_for,
    write_config,
)

from engine import records
from engine.games.dvonn import notation as dvonn_notation
from engine.games.dvonn.board import DVONN_BOARD
from engine.games.dvonn.rules import DvonnGame
from engine.tools import littlegolem
from engine.tools.littlegolem import site_move
from engine.tools.littlegolem.pages import game_list
from engine.tools.littlegolem.site import GameList

REPO = Path(__file__).resolve().parents[1]
SEARCH_ENGINE = ["option depth 2"]  # the core search, kept short


@pytest.fixture
def site():
    stand_in, server = serve()
    yield stand_in
    server.shutdown()
    server.server_close()


# --- the notation -----------------------------------------------------------
def test_dvonn_move_form_is_column_and_row_from_the_top():
    assert site_move("dvonn", "g2") == "gd"
    assert site_move("dvonn", "a2b2") == "adbd"
    assert site_move("dvonn", "pass") == "pass"
    assert site_move("dvonn", "c5") == "ca" and site_move("dvonn", "i1") == "ie"
    assert site_move("dvonn", "E3-F3") == "ecfc"  # the engine's own notation works too
    for point in DVONN_BOARD.names:
        assert dvonn_from_site(site_move("dvonn", point.lower())) == point
    game = DvonnGame.start()
    for move in game.legal_moves():
        text = game.move_text(move)
        assert dvonn_from_site(site_move("dvonn", dvonn_notation.dvonn_to_littlegolem(text))) == text
    assert site_move("dvonn", "resign") == site_move("tzaar", "Resign") == "resign"
    for bad in ("l1", "a6", "g2g", ""):
        with pytest.raises(ValueError):
            site_move("dvonn", bad)


def test_tzaar_move_form_is_the_record_notation():
    assert site_move("tzaar", "qmrl") == "qmrl"
    assert site_move("tzaar", "prqq-kplp") == "prqq-kplp"
    assert site_move("tzaar", "osoq-pass") == "osoq-pass"
    for bad in ("G4xC6", "qmr", "qmrl-", "pass"):
        with pytest.raises(ValueError):
            site_move("tzaar", bad)
    with pytest.raises(ValueError):
        site_move("hex", "a1")


def waiting_games(page: str) -> list[int]:
    return [game.gid for game in GameList(game_list(page), False).waiting]


def test_the_game_list_is_the_table_before_the_opponents_turn():
    page = ('<a href="/jsp/game/game.jsp?gid=9">nav</a> Games where it is your turn'
            '<a href="game.jsp?gid=12">x</a><a href="game.jsp?x=1&amp;gid=34">y</a>'
            '<a href="game.jsp?gid=12">again</a>'
            "Games where it is your opponent&#8217;s turn <a href='game.jsp?gid=56'>z</a>")
    assert waiting_games(page) == [9, 12, 34]
    assert waiting_games("Games where it is your turn <table></table>") == []
    with pytest.raises(littlegolem.PageError):
        waiting_games("<html>Service unavailable</html>")


def test_a_game_list_row_names_its_game_and_players():
    page = ("<h3>Games where it is your turn</h3><table><tr>"
            "<td><a href='/jsp/game/game.jsp?gid=7'>#7</a></td><td>Dvonn</td>"
            "<td><a href='/jsp/info/player.jsp?plid=1'>gipfbot</a> - "
            "<a href='/jsp/info/player.jsp?plid=2'>Xander</a></td></tr>"
            "<tr><td><a href='game.jsp?gid=8'>#8</a></td><td>Hex 13x13</td></tr></table>"
            "<h3>Games where it is your opponent's turn</h3><table><tr>"
            "<td><a href='game.jsp?gid=9'>#9</a></td><td> TZAAR </td></tr></table>")
    games = game_list(page)
    assert [(g.gid, g.our_turn, g.game, g.players) for g in games] == [
        (7, True, "dvonn", ["gipfbot", "Xander"]), (8, True, None, []), (9, False, "tzaar", [])]


@settings(max_examples=200, deadline=None)
@given(st.text(alphabet=st.one_of(st.sampled_from(list("gamejsp?=&;.<>'\" 0123456789abcdekqrs-")),
                                  st.characters()), max_size=80),
       st.sampled_from(["dvonn", "tzaar", "go"]))
def test_hostile_text_gives_a_list_or_a_site_error_and_a_move_or_a_value_error(text, game):
    for page in (text, f"Games where it is your turn {text}",
                 f"{text} Games where it is your opponent's turn"):
        try:
            gids = waiting_games(page)
        except littlegolem.PageError:
            continue
        assert all(isinstance(gid, int) and gid >= 0 for gid in gids)
        assert len(gids) == len(set(gids))
    try:
        move = site_move(game, text)
    except ValueError:
        return
    assert re.fullmatch(r"resign|pass|([a-k][a-e]){1,2}" if game == "dvonn"
                        else r"resign|[k-s]{4}(-([k-s]{4}|pass))?", move)


# --- whole runs -------------------------------------------------------------
def test_plays_several_games_of_both_kinds_to_the_end_through_faults(site, tmp_path):
    site.add(101, "dvonn", ours=0, seed=1)
    site.add(102, "dvonn", moves=30, ours=1, seed=2)
    site.add(103, "tzaar", ours=0, seed=3)
    site.add(104, "tzaar", moves=5, ours=1, seed=4)
    site.inject("GET", "/jsp/game/", "status", 500, after=2, times=2)
    site.inject("GET", "/jsp/game/", "sleep", SLOW, after=6)           # past http_timeout
    site.inject("GET", "/jsp/game/", "logout", after=9)
    site.inject("GET", r"/servlet/sgf/103/game103\.txt", "sleep", SLOW, after=3)
    site.inject("GET", r"/servlet/sgf/101/game\.txt", "body", "1. g2 zz9 garbage", after=4,
                times=3)  # one of them a pass's read, not the read after a post
    site.inject("GET", r"/servlet/sgf/104/game104\.txt", "body", "(;FF[TZAAR]POS[x];W[", after=2)
    site.inject("POST", "/jsp/game/game.jsp", "status", 500, after=5)
    site.inject("POST", "/jsp/game/game.jsp", "status", 503, after=20)
    site.inject("POST", "/jsp/game/game.jsp", "logout", after=12)
    config = write_config(tmp_path, site)
    proc = start_runner(config)
    try:
        wait_for(lambda: all(g.game.over for g in site.games.values()), what="the games' ends")
    finally:
        status, out, err = stop(proc)
    assert status == 0, err
    assert out == ""
    assert_each_accepted_post_legal_and_once(site)
    assert {p.gid for p in site.accepted()} == {101, 102, 103, 104}
    assert site.logins >= 2  # logged in again after the session ended
    for expected in ("HTTP 500", "no answer within", "the session has ended",
                     "game 101: skipped: an unreadable dvonn record",
                     "game104.txt: the record stops before its end", "the site did not take",
                     "retrying in", "SIGTERM: stopping"):
        assert expected in err, expected
    assert PASSWORD not in err
    assert not any("Traceback" in line for line in err.splitlines())
    state = json.loads((tmp_path / "state.json").read_text())
    assert state["format"] == 2 and set(state["games"]) <= {"101", "102", "103", "104"}
    assert {entry["status"] for entry in state["games"].values()} <= {"posted", "sending",
                                                                        "refused"}


@pytest.mark.parametrize("login_redirect, other_form_status", [(False, 404), (True, 500)])
def test_dry_run_prints_a_move_for_every_waiting_game_and_posts_nothing(
        site, tmp_path, monkeypatch, capsys, login_redirect, other_form_status):
    site.login_redirect, site.other_form_status = login_redirect, other_form_status
    site.add(201, "dvonn", ours=0)
    site.add(202, "dvonn", moves=47, ours=1, seed=5)   # Black places the 48th
    site.add(203, "dvonn", moves=48, ours=0, seed=6)   # White's first stack move
    site.add(204, "tzaar", ours=0, seed=8)
    site.add(205, "tzaar", moves=3, ours=1, seed=9)
    site.add(206, "tzaar", moves=2, ours=0, seed=10).ours = 1  # the opponent's turn
    assert not site.games[206].our_turn
    config = write_config(tmp_path, site, engine_setup=SEARCH_ENGINE)  # the real search
    status, out, err = run_main(monkeypatch, capsys, "--config", str(config), "--dry-run")
    assert status == 0, err
    printed = dict(line.split() for line in out.splitlines())
    assert sorted(printed) == ["201", "202", "203", "204", "205"]
    assert re.fullmatch(r"[a-k][a-e]", printed["201"]) and re.fullmatch(r"[a-k][a-e]",
                                                                          printed["202"])
    assert re.fullmatch(r"([a-k][a-e]){2}|pass", printed["203"])
    assert re.fullmatch(r"[k-s]{4}", printed["204"])
    assert re.fullmatch(r"[k-s]{4}-([k-s]{4}|pass)", printed["205"])
    assert site.posts == [] and not (tmp_path / "state.json").exists()
    for gid, move in printed.items():  # each would be legal
        assert site.move({"sendgame": [gid], "sendmove": [move]})[0] == 200, (gid, move)


def test_skips_other_games_finished_resigned_and_malformed_records(site, tmp_path, monkeypatch,
                                                                   capsys):
    site.add(301, "hex")
    finished = site.add(302, "tzaar", moves=400, seed=11, listed=True)
    assert finished.game.over
    site.add(303, "tzaar", moves=10, seed=12, listed=True).record.resigned_by = "w"
    site.add(304, "dvonn", moves=4, seed=13, malformed="Event [x] 1. g2 zz9 2. c1")
    site.add(305, "tzaar", moves=2, seed=14, malformed="(;FF[TZAAR];W[zzzz])")
    site.add(306, "dvonn", moves=6, seed=15, malformed="\x00\x01 not a record")
    site.add(307, "tzaar", ours=0, seed=16)
    config = write_config(tmp_path, site, games=["tzaar"])
    site.add(308, "dvonn", moves=8, seed=17)            # we play only TZAAR here
    status, out, err = run_main(monkeypatch, capsys, "--config", str(config), "--dry-run")
    assert status == 0, err
    assert [line.split()[0] for line in out.splitlines()] == ["307"]
    for expected in ("game 301: skipped: not a DVONN or TZAAR record",
                     "game 302: skipped: finished", "game 303: skipped: White resigned",
                     "game 304: skipped: an unreadable dvonn record",
                     "game 305: skipped: an unreadable tzaar record",
                     "game 306: skipped: not a DVONN or TZAAR record",
                     "game 308: skipped: a dvonn game (we play tzaar)"):
        assert expected in err, expected


def test_a_post_the_record_does_not_show_is_refused_and_the_game_stopped_after_max_refusals(
        site, tmp_path, monkeypatch, capsys):
    site.add(401, "tzaar", ours=0, seed=18)
    site.add(402, "dvonn", moves=3, ours=1, seed=19)
    site.apply_posts = False  # the site answers 200 and keeps waiting for the same move
    config = write_config(tmp_path, site, max_refusals=2, owner="4242")
    logs = []
    for expected in (1, 1, 0, 0):  # the third pass gives the games up: nothing fails after
        status, _, err = run_main(monkeypatch, capsys, "--config", str(config), "--once")
        assert status == expected, err
        logs.append(err)
    # each post is answered 'move sent'; the next pass finds the record still waiting
    assert "the site answered 'move sent' to" in logs[0]
    assert "but the record still waits for the move; settled at the next pass" in logs[0]
    assert "(refusal 1 of 2): the site answered 'move sent' and the record still waits" in logs[1]
    assert "game 401: not posting to this game again after 2 refusals" in logs[2]
    assert "was refused 2 times; not posting to this game again" in logs[3]
    assert sorted(p.gid for p in site.posts) == [401, 401, 402, 402]
    state = json.loads((tmp_path / "state.json").read_text())
    assert {gid: (e["status"], e["ply"]) for gid, e in state["games"].items()} == \
        {"401": ("stopped", 0), "402": ("stopped", 3)}
    assert sorted(title for _, title, _ in site.messages) == \
        ["Gipfbot stopped playing game 401", "Gipfbot stopped playing game 402"]


def test_a_post_without_a_clear_answer_is_settled_by_the_record(site, tmp_path, monkeypatch,
                                                               capsys):
    site.reply = False
    site.add(403, "tzaar", ours=0, seed=20)
    site.add(404, "dvonn", moves=5, ours=1, seed=21)
    site.inject("POST", "/jsp/game/game.jsp", "sleep", SLOW)   # taken after the timeout
    site.inject("POST", "/jsp/game/game.jsp", "reset")         # never taken
    config = write_config(tmp_path, site, workers=1)
    status, _, err = run_main(monkeypatch, capsys, "--config", str(config), "--once")
    assert status == 1 and err.count("without a clear answer") == 2, err
    state = json.loads((tmp_path / "state.json").read_text())
    assert {e["status"] for e in state["games"].values()} == {"sending"}
    site.idle()
    time.sleep(2.1)  # the runner gives a timed-out post http_timeout to settle
    status, _, err = run_main(monkeypatch, capsys, "--config", str(config), "--once")
    assert status == 0, err
    assert "still waits for move" in err and "was not taken; posting again" in err
    assert sorted(p.gid for p in site.accepted()) == [403, 404]
    assert_each_accepted_post_legal_and_once(site)


def test_password_file_readable_by_others_is_refused(site, tmp_path, monkeypatch, capsys):
    site.add(501, "dvonn", ours=0)
    config = write_config(tmp_path, site)
    secret = tmp_path / "password"
    secret.write_text(PASSWORD + "\n")
    monkeypatch.delenv("LITTLEGOLEM_PASSWORD", raising=False)
    for mode in (0o644, 0o640, 0o604, 0o660):
        secret.chmod(mode)
        status = littlegolem.main(["--config", str(config), "--password-file", str(secret),
                                   "--dry-run"])
        out, err = capsys.readouterr()
        assert status == 1 and "chmod 600" in err and err.count("\n") == 1
    assert site.requests == []
    secret.chmod(0o600)
    status = littlegolem.main(["--config", str(config), "--password-file", str(secret),
                               "--dry-run"])
    out, err = capsys.readouterr()
    assert status == 0, err
    assert out.split()[0] == "501" and PASSWORD not in err
    status = littlegolem.main(["--config", str(config), "--dry-run"])
    assert status == 2 and "LITTLEGOLEM_PASSWORD" in capsys.readouterr().err
    # no password on the command line, and an unknown option's value is not echoed
    assert littlegolem.main(["--password", PASSWORD, "--once"]) == 2
    err = capsys.readouterr().err
    assert "--password" in err and PASSWORD not in err


def test_a_refused_login_fails_the_pass(site, tmp_path, monkeypatch, capsys):
    site.add(601, "dvonn", ours=0)
    config = write_config(tmp_path, site)
    status, out, err = run_main(monkeypatch, capsys, "--config", str(config), "--once",
                                password="wrong")
    assert status == 1 and out == ""
    assert "login failed for 'gipfbot': the site answered 'Wrong login or password." in err
    assert site.posts == []


def test_config_errors_are_usage_errors(tmp_path, capsys, monkeypatch):
    monkeypatch.setenv("LITTLEGOLEM_PASSWORD", PASSWORD)
    cases = {"colour = 'red'\nuser = 'x'\n": "unknown key 'colour'",
             "user = 'x'\npassword = 'p'\n": "holds no password",
             "user = 'x'\nworkers = 'two'\n": "workers must be an integer",
             "user = 'x'\ngames = ['go']\n": "games must list",
             "user = 'x'\nmovetime = 0\n": "movetime must be positive",
             "user = [\n": "not TOML",
             "base_url = 'http://127.0.0.1:9'\n": "no account",
             "user = 'x'\nbase_url = 'file:///etc'\n": "must be http(s)://host",
             "user = 'x'\nbase_url = 'www.littlegolem.net'\n": "must be http(s)://host"}
    for text, message in cases.items():
        path = tmp_path / "c.toml"
        path.write_text(text)
        assert littlegolem.main(["--config", str(path), "--once"]) == 2
        err = capsys.readouterr().err
        assert message in err and err.count("\n") == 1, (text, err)
    assert littlegolem.main(["--config", str(tmp_path / "missing.toml")]) == 2
    assert littlegolem.main(["--bogus"]) == 2
    capsys.readouterr()


def test_flags_override_the_config(site, tmp_path, monkeypatch, capsys):
    site.add(701, "tzaar", ours=0, seed=21)
    config = write_config(tmp_path, site, base_url="http://127.0.0.1:9", user="nobody",
                          movetime=99999, state_file=str(tmp_path / "unused.json"))
    status, out, err = run_main(monkeypatch, capsys, "--config", str(config), "--once",
                                "--base-url", site.url, "--user", USER, "--movetime", "60",
                                "--state", str(tmp_path / "flag.json"))
    assert status == 0, err
    assert "60 ms a move" in err and [p.gid for p in site.accepted()] == [701]
    assert (tmp_path / "flag.json").exists() and not (tmp_path / "unused.json").exists()


@pytest.mark.parametrize("signum, status", [(signal.SIGTERM, 0), (signal.SIGINT, 130)])
def test_a_signal_during_a_think_leaves_no_engine(site, tmp_path, signum, status):
    site.add(801, "dvonn", moves=20, ours=0, seed=22)
    config = write_config(tmp_path, site, movetime=600_000, engine_setup=[], workers=1)
    proc = start_runner(config)
    lines: list[str] = []
    reader = threading.Thread(target=lambda: lines.extend(proc.stderr), daemon=True)
    reader.start()
    try:
        wait_for(lambda: any("thinking with engine 1" in line for line in lines), 120,
                 "the think")
        (pid,) = {int(m.group(1)) for line in lines for m in [re.search(r"pid (\d+)", line)]
                  if m}
        assert pid_alive(pid)
        proc.send_signal(signum)
        proc.wait(timeout=60)
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
        reader.join(timeout=10)
        proc.stdout.close()
        proc.stderr.close()
    assert proc.returncode == status, "".join(lines)
    wait_for(lambda: not pid_alive(pid), 30, "the engine's end")
    assert site.posts == []
    assert any("think abandoned" in line for line in lines), "".join(lines)


def test_shared_records_are_read_and_continued(site, tmp_path, monkeypatch, capsys):
    folder = shared_dir("records", "littlegolem")
    for gid, name in ((2552914, "game2552914.txt"), (2558925, "game2558925.txt"),
                      (901, "dvonn-demo.txt")):
        record = records.read_record((folder / name).read_bytes())
        kind = record.game
        opponent, record.white = record.black, USER
        full = SiteGame(gid, kind, 0, record, listed=True, opponent=opponent)
        assert full.game.over or record.resigned_by is not None  # finished: skipped
        site.games[gid] = full
    demo = records.read_record((folder / "dvonn-demo.txt").read_bytes())
    tzaar = records.read_record((folder / "game2558925.txt").read_bytes())
    for gid, record, cut in ((902, demo, 60), (903, tzaar, 10)):
        part = records.GameRecord(record.game, record.moves[:cut], white=record.white,
                                  black=record.black, opening=record.opening)
        side = records.replay(part).side
        opponent = (part.black, part.white)[side]
        if side == 0:
            part.white = USER
        else:
            part.black = USER
        site.games[gid] = SiteGame(gid, record.game, side, part, opponent=opponent)
    config = write_config(tmp_path, site, engine_setup=SEARCH_ENGINE)  # the real search
    status, _, err = run_main(monkeypatch, capsys, "--config", str(config), "--once")
    assert status == 0, err
    assert sorted(p.gid for p in site.accepted()) == [902, 903]
    assert_each_accepted_post_legal_and_once(site)
    assert "game 2552914: skipped: finished" in err and "game 901: skipped: White resigned" in err


def test_no_post_without_a_usable_state_file(site, tmp_path, monkeypatch, capsys):
    site.add(1001, "tzaar", ours=0, seed=23)
    blocker = tmp_path / "a-file"
    blocker.write_text("")
    config = write_config(tmp_path, site, state_file=str(blocker / "state.json"))
    status, _, err = run_main(monkeypatch, capsys, "--config", str(config), "--once")
    assert status == 1 and "cannot lock the state file" in err and err.count("\n") == 1
    assert site.posts == [] and site.requests == []
    corrupt = tmp_path / "corrupt.json"
    for text in ("{not json", '{"format": 3, "games": {}}', '{"format": 1, "games": []}'):
        corrupt.write_text(text)
        status, _, err = run_main(monkeypatch, capsys, "--config", str(config), "--once",
                                  "--state", str(corrupt))
        assert status == 1 and "state file" in err and err.count("\n") == 1
    assert site.posts == [] and site.requests == []


@pytest.mark.parametrize("logged_out_status", [200, 401, 403])
def test_a_lost_session_is_logged_in_again(site, tmp_path, monkeypatch, capsys,
                                           logged_out_status):
    site.logged_out_status = logged_out_status
    site.add(1101, "dvonn", ours=0)
    site.add(1102, "tzaar", ours=0, seed=24)
    site.inject("GET", "/jsp/game/", "logout")
    site.inject("POST", "/jsp/game/game.jsp", "logout")
    config = write_config(tmp_path, site)
    status, _, err = run_main(monkeypatch, capsys, "--config", str(config), "--once")
    assert status == 0, err
    assert sorted(p.gid for p in site.accepted()) == [1101, 1102]
    assert_each_accepted_post_legal_and_once(site)
    assert site.logins >= 3 and err.count("the session has ended") >= 2


@pytest.mark.parametrize("slow", ["the game list", "a record"])
def test_sigterm_does_not_wait_for_a_slow_site(site, tmp_path, slow):
    site.add(1201, "dvonn", moves=20, ours=0, seed=25)
    site.add(1202, "tzaar", moves=4, ours=0, seed=26)
    if slow == "the game list":
        site.inject("GET", "/jsp/game/", "sleep", 600)
    else:
        site.inject("GET", r"/servlet/sgf/1202/game1202\.txt", "sleep", 600)
    config = write_config(tmp_path, site, movetime=600_000, engine_setup=[],
                          http_timeout=900.0)
    proc = start_runner(config)
    lines: list[str] = []
    reader = threading.Thread(target=lambda: lines.extend(proc.stderr), daemon=True)
    reader.start()
    try:
        if slow == "the game list":
            wait_for(lambda: ("GET", "/jsp/game/") in site.requests, 120, "the list request")
        else:
            wait_for(lambda: any("thinking with" in line for line in lines), 120, "the think")
            wait_for(lambda: ("GET", "/servlet/sgf/1202/game1202.txt") in site.requests, 120,
                     "the record request")
        proc.send_signal(signal.SIGTERM)
        proc.wait(timeout=120)  # far less than the answer's 600 s
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
        reader.join(timeout=10)
        proc.stdout.close()
        proc.stderr.close()
    assert proc.returncode == 0, "".join(lines)
    pids = {int(m.group(1)) for line in lines for m in [re.search(r"started \(pid (\d+)", line)]
            if m}
    assert len(pids) == (0 if slow == "the game list" else 1), "".join(lines)
    for pid in pids:
        wait_for(lambda pid=pid: not pid_alive(pid), 30, "the engine's end")
    assert site.posts == []
    assert "SIGTERM: stopping" in "".join(lines) and "Traceback" not in "".join(lines)


def test_an_idle_poll_is_logged_once(site, tmp_path, caplog):
    settings = littlegolem.Settings(user=USER, base_url=site.url, http_timeout=5.0)
    runner = littlegolem.Runner(settings, littlegolem.Site(site.url, USER, PASSWORD, 5.0),
                                littlegolem.PostedMoves(tmp_path / "state.json"),
                                dry_run=True, once=True)
    caplog.set_level("INFO", logger="gipf-littlegolem")
    for _ in range(3):
        assert runner.one_pass()
    assert [r.getMessage() for r in caplog.records].count("0 game(s) waiting for our move") == 1


@pytest.mark.parametrize("allowed", [False, True])
def test_an_engine_without_the_compiled_core_plays_only_when_allowed(
        site, tmp_path, monkeypatch, capsys, fake_engine, allowed):
    site.add(401, "dvonn", ours=0)
    engine = fake_engine("0.1.0 core=unavailable (not built)")
    config = write_config(tmp_path, site, engine=engine, engine_setup=[])
    extra = ["--allow-python-player"] if allowed else []
    status, out, err = run_main(monkeypatch, capsys, "--config", str(config), "--dry-run", *extra)
    assert site.posts == []
    if allowed:
        assert "runs without the compiled core" in err
    else:
        assert "does not run the compiled core" in err and "--allow-python-player" in err
        assert out == ""
