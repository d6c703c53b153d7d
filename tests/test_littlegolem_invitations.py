"""gipf-littlegolem's invitations, messages to its owner, resignations, login failures and
settings, against the stand-in site (tests/littlegolem_standin.py)."""
from __future__ import annotations

import json
import subprocess
import sys
import tomllib

import pytest
from littlegolem_standin import (
    PASSWORD,
    REPO,
    USER,
    env_with_password,
    run_main,
    serve,
    write_config,
)

from engine.tools import littlegolem
from engine.tools.littlegolem import config as bot_config
from engine.tools.littlegolem.invitations import decide
from engine.tools.littlegolem.pages import Invitation, PageError, invitations

OWNER = "4242"


@pytest.fixture
def site():
    stand_in, server = serve()
    stand_in.reply = False  # one move per waiting game over all the passes
    yield stand_in
    server.shutdown()
    server.server_close()


def invited(site) -> None:
    site.add(51, "dvonn", moves=6, ours=0, seed=51)
    site.add(52, "tzaar", moves=3, ours=1, seed=52)
    site.invite(701, "alice", "Dvonn")
    site.invite(702, "bob", "Chess")
    site.invite(703, "carol", "Tzaar")


def test_three_passes_accept_dvonn_and_tzaar_refuse_chess_once_each_and_play(
        site, tmp_path, monkeypatch, capsys):
    invited(site)
    config = write_config(tmp_path, site, owner=OWNER)
    logs = []
    for _ in range(3):
        status, _, err = run_main(monkeypatch, capsys, "--config", str(config), "--once")
        assert status == 0, err
        logs.append(err)
    assert sorted(site.answers) == [(701, "accept"), (702, "refuse"), (703, "accept")]
    first = logs[0]
    assert "3 invitation(s): 701 Dvonn from alice, 702 Chess from bob, 703 Tzaar from carol" in first
    assert "invitation 701 from alice (Dvonn): accepted: dvonn is played; 2 games in progress" in first
    assert ("invitation 702 from bob (Chess): refused: Chess is not one of the games played "
            "(dvonn, tzaar)") in first
    assert "invitation 703 from carol (Tzaar): accepted: tzaar is played; 3 games in progress" in first
    # the two games the invitations started wait for our move at the next pass
    new = [gid for gid in site.games if gid not in (51, 52)]
    assert len(new) == 2 and {site.games[g].kind for g in new} == {"dvonn", "tzaar"}
    for gid in site.games:
        taken = [p for p in site.posts if p.gid == gid]
        assert len(taken) == 1 and taken[0].taken, (gid, site.posts)
    assert [p for p in site.posts if p.status != 200] == []
    assert sorted(title for _, title, _ in site.messages) == [
        "Gipfbot accepted Dvonn from alice", "Gipfbot accepted Tzaar from carol",
        "Gipfbot refused Chess from bob"]
    assert all(to == OWNER for to, _, _ in site.messages)
    state = json.loads((tmp_path / "state.json").read_text())
    # settled: the page no longer lists them, and the accepted ones' games are on the list
    assert state["invitations"] == {}
    assert "Traceback" not in "".join(logs)


def test_a_dry_run_answers_posts_and_sends_nothing(site, tmp_path, monkeypatch, capsys):
    invited(site)
    config = write_config(tmp_path, site, owner=OWNER)
    status, out, err = run_main(monkeypatch, capsys, "--config", str(config), "--dry-run")
    assert status == 0, err
    assert sorted(line.split()[0] for line in out.splitlines()) == ["51", "52"]
    assert "invitation 701 from alice (Dvonn): would accept" in err
    assert "invitation 702 from bob (Chess): would refuse" in err
    assert "told 4242" not in err
    assert site.answers == [] and site.posts == [] and site.messages == []
    assert not (tmp_path / "state.json").exists()


def test_the_filters_decide(site):
    settings = littlegolem.Settings(user=USER, accept_from=["Alice", "dave"],
                                    refuse_from=["Dave"], max_games=3)
    cases = [(Invitation("1", "alice", "Dvonn"), 2, True, "dvonn is played; 2 games in progress"),
             (Invitation("2", "ALICE", "TZAAR"), 3, False, "3 games in progress (max_games 3)"),
             (Invitation("3", "dave", "Dvonn"), 0, False, "dave is on refuse_from"),
             (Invitation("4", "erin", "Tzaar"), 0, False, "erin is not on accept_from"),
             (Invitation("5", "alice", "Hex 13x13"), 0, False, "Hex 13x13 is not one of the games"),
             (Invitation("7", "Dave (1620)", "Dvonn (rated)"), 0, False, "Dave (1620) is on refuse"),
             (Invitation("8", "alice2", "Tzaar"), 0, False, "alice2 is not on accept_from"),
             (Invitation("9", "alice (1620)", "Dvonn (rated)"), 0, True, "dvonn is played")]
    for invitation, in_progress, accept, why in cases:
        verdict = decide(settings, invitation, in_progress)
        assert verdict[0] == accept and verdict[1].startswith(why), (invitation, verdict)
    only_tzaar = littlegolem.Settings(user=USER, games=["tzaar"])
    assert decide(only_tzaar, Invitation("6", "x", "Dvonn"), 0)[0] is False


def test_max_games_counts_the_games_in_progress(site, tmp_path, monkeypatch, capsys):
    invited(site)
    config = write_config(tmp_path, site, max_games=3, refuse_from=["ALICE"])
    status, _, err = run_main(monkeypatch, capsys, "--config", str(config), "--once")
    assert status == 0, err
    assert sorted(site.answers) == [(701, "refuse"), (702, "refuse"), (703, "accept")]
    assert "alice is on refuse_from" in err
    site.invite(704, "dave", "Dvonn")
    status, _, err = run_main(monkeypatch, capsys, "--config", str(config), "--once")
    assert (704, "refuse") in site.answers and "3 games in progress (max_games 3)" in err


def test_invitations_ignore_leaves_them_unanswered(site, tmp_path, monkeypatch, capsys):
    invited(site)
    config = write_config(tmp_path, site, invitations="ignore")
    status, _, err = run_main(monkeypatch, capsys, "--config", str(config), "--once")
    assert status == 0, err
    assert site.answers == [] and ("GET", "/jsp/invitation/index.jsp") not in site.requests
    assert 'new invitations: left unanswered (invitations = "ignore")' in err
    assert sorted(p.gid for p in site.accepted()) == [51, 52]


@pytest.mark.parametrize("page, expected", [
    ("<html><body><p>Down for maintenance</p></body></html>",
     "does not say 'Invitations from other players'"),
    ("<html><body><p>Invitations from other players</p><table><tr><td>x</td></tr></table>"
     "</body></html>", "no table with a 'Your decision' column"),
    ("<html><body>Invitations from other players<table><tr><th>Player</th><th>Game</th>"
     "<th>Your decision</th></tr><tr><td>eve</td><td>Dvonn</td><td>call me</td></tr>"
     "<tr><td>al</td><td>Dvonn</td><td><a href='/Invitation.action?accept=&amp;invid=9'>a</a>"
     "<a href='/Invitation.action?refuse=&amp;invid=9'>r</a></td></tr></table></body></html>",
     "the invitation page: not an invitation row: eve | Dvonn | call me"),
])
def test_an_unexpected_invitation_page_is_logged_and_the_games_are_played(
        site, tmp_path, monkeypatch, capsys, page, expected):
    invited(site)
    site.invitation_page = page
    config = write_config(tmp_path, site)
    status, _, err = run_main(monkeypatch, capsys, "--config", str(config), "--once")
    assert status == 0, err
    assert expected in err and "Traceback" not in err
    assert sorted(p.gid for p in site.accepted()) == [51, 52]
    assert site.answers == []  # invid 9 is not one of the stand-in's: it says so, and no more
    if "invid=9" in page:
        assert "invitation 9 from al (Dvonn): the site did not take the answer (accept): the " \
            "page still lists it; left to the owner" in err
        state = json.loads((tmp_path / "state.json").read_text())
        assert state["invitations"]["9"]["status"] == "not taken"  # not asked again


def test_the_invitation_table_is_read_with_the_standard_parser():
    page = ("<table><tr><td><p>Invitations from other players</p>"
            "<table><tr><th>Player</th><th>Game</th><th>Your decision</th></tr>"
            "<tr><td><a href='/jsp/info/player.jsp?plid=3'> Ann&nbsp;B </a></td>"
            "<td>Hex 13x13</td><td><a href='/Invitation.action?accept=&amp;invid=17'>accept</a>"
            " | <a href=\"/Invitation.action?refuse=&invid=17\">refuse</a></td></tr></table>"
            "</td></tr></table>")
    found, problems = invitations(page)
    assert found == [Invitation("17", "Ann B", "Hex 13x13")] and problems == []
    with pytest.raises(PageError):
        invitations("<p>Your decision</p>")


def test_a_restart_between_the_answer_and_the_state_write_never_answers_twice(
        site, tmp_path, monkeypatch, capsys):
    site.invite(711, "alice", "Dvonn")
    config = write_config(tmp_path, site)
    # the first run dies (os._exit) right after the site took the answer
    crash = ("import os, sys\n"
             "from engine.tools.littlegolem import site\n"
             "answer = site.Site.answer_invitation\n"
             "def answer_then_die(self, *args):\n"
             "    answer(self, *args)\n"
             "    os._exit(137)\n"
             "site.Site.answer_invitation = answer_then_die\n"
             "from engine.tools.littlegolem import main\n"
             "sys.exit(main(sys.argv[1:]))\n")
    done = subprocess.run([sys.executable, "-c", crash, "--config", str(config), "--once"],
                          cwd=REPO, env=env_with_password(), capture_output=True, text=True,
                          timeout=120)
    assert done.returncode == 137, done.stderr
    assert site.answers == [(711, "accept")]
    state = json.loads((tmp_path / "state.json").read_text())
    assert state["invitations"]["711"]["status"] == "answering"
    # the next passes settle it by the page, which no longer lists it: taken, not sent again
    for _ in range(2):
        status, _, err = run_main(monkeypatch, capsys, "--config", str(config), "--once")
        assert status == 0, err
    assert site.answers == [(711, "accept")]
    assert site.requests.count(("GET", "/Invitation.action")) == 1


def test_a_message_that_fails_never_stops_play(site, tmp_path, monkeypatch, capsys):
    invited(site)
    site.inject("POST", "/jsp/message/new.jsp", "status", 500, times=10)
    config = write_config(tmp_path, site, owner=OWNER)
    status, _, err = run_main(monkeypatch, capsys, "--config", str(config), "--once")
    assert status == 0, err
    assert err.count("could not tell 4242") == 3 and "HTTP 500" in err
    assert len(site.answers) == 3 and sorted(p.gid for p in site.accepted()) == [51, 52]


def test_the_owner_hears_of_a_game_that_ends(site, tmp_path, monkeypatch, capsys):
    site.add(61, "tzaar", moves=3, ours=1, seed=61)
    site.add(62, "dvonn", moves=6, ours=0, seed=62)
    config = write_config(tmp_path, site, owner=OWNER)
    status, _, err = run_main(monkeypatch, capsys, "--config", str(config), "--once")
    assert status == 0, err
    site.games[61].record.resigned_by = "w"  # the opponent resigns: the list drops the game
    status, _, err = run_main(monkeypatch, capsys, "--config", str(config), "--once")
    assert status == 0, err
    assert "game 61 (tzaar against opponent) has ended: White resigned" in err
    assert [title for _, title, _ in site.messages] == ["Game 61 ended: White resigned"]
    run_main(monkeypatch, capsys, "--config", str(config), "--once")
    assert len(site.messages) == 1


def test_resign_posts_resign_when_the_score_stays_low(site, tmp_path, monkeypatch, capsys):
    site.reply = True
    site.add(81, "tzaar", moves=5, ours=1, seed=81)
    site.add(82, "dvonn", moves=52, ours=0, seed=82)
    config = write_config(tmp_path, site, resign=True, resign_score=1_000_000, resign_moves=2,
                          owner=OWNER, engine_setup=["option depth 1"])
    status, _, err = run_main(monkeypatch, capsys, "--config", str(config), "--once")
    assert status == 0, err
    assert [p.move for p in site.accepted()].count("resign") == 0  # one low score so far
    status, _, err = run_main(monkeypatch, capsys, "--config", str(config), "--once")
    assert status == 0, err
    resigns = [p.gid for p in site.accepted() if p.move == "resign"]
    assert sorted(resigns) == [81, 82], (site.posts, err)
    assert "below 1000000 for 2 move(s) in a row: resigning" in err
    assert "game 81 (tzaar, move" in err and ": posted resign (the record shows it)" in err
    assert site.games[81].record.resigned_by == "b" and site.games[82].record.resigned_by == "w"
    assert sorted(t for _, t, _ in site.messages) == ["Game 81 ended: Black resigned",
                                                      "Game 82 ended: White resigned"]


def test_resign_is_off_by_default(site, tmp_path, monkeypatch, capsys):
    site.add(83, "tzaar", moves=5, ours=1, seed=83)
    config = write_config(tmp_path, site, resign_score=1_000_000, resign_moves=1,
                          engine_setup=["option depth 1"])
    status, _, err = run_main(monkeypatch, capsys, "--config", str(config), "--once")
    assert status == 0, err
    assert [p.move for p in site.accepted()] != ["resign"] and len(site.accepted()) == 1


def test_a_failed_login_says_so_with_the_sites_answer(site, tmp_path, monkeypatch, capsys):
    invited(site)
    config = write_config(tmp_path, site)
    status, out, err = run_main(monkeypatch, capsys, "--config", str(config), "--once",
                                password="not-" + PASSWORD)
    assert status == 1 and out == ""
    assert "ERROR login failed for 'gipfbot': the site answered 'Wrong login or password." in err
    assert "cannot list the games" not in err and PASSWORD not in err
    assert site.answers == [] and site.posts == []


def test_help_lists_every_key_with_its_default_and_print_config_prints_them(capsys, tmp_path,
                                                                           monkeypatch):
    with pytest.raises(SystemExit) as stop:
        littlegolem.main(["--help"])
    assert stop.value.code == 0
    text = capsys.readouterr().out
    for key in bot_config.KEYS:
        assert f"\n  {key} " in text, key
    assert "(default 30000)" in text and "--print-config" in text
    assert littlegolem.main(["--print-config"]) == 0
    printed = capsys.readouterr().out
    values = tomllib.loads(printed.replace('# password_file = ""', "").replace(
        '# state_file = ""', "").replace("# engine = ", "engine = "))
    defaults = littlegolem.Settings()
    assert set(values) == set(bot_config.KEYS) - {"password_file", "state_file"}
    for key, value in values.items():
        assert value == getattr(defaults, key), key
    # the engine of the install that runs the bot, shown and left unset
    assert values["engine"].startswith(sys.executable) and "\n# engine = " in printed
    # the printed file, with an account, is a configuration the bot takes
    path = tmp_path / "printed.toml"
    path.write_text(printed.replace('user = ""', f'user = "{USER}"').replace(
        "https://www.littlegolem.net", "http://127.0.0.1:9"))
    monkeypatch.setenv("LITTLEGOLEM_PASSWORD", PASSWORD)
    args = bot_config.parse_args(["--config", str(path)], "")
    assert bot_config.settings_from(args).user == USER


def test_the_invitation_page_is_read_when_the_list_says_so_and_now_and_then(site, tmp_path):
    settings = littlegolem.Settings(user=USER, base_url=site.url, http_timeout=5.0)
    runner = littlegolem.Runner(settings, littlegolem.Site(site.url, USER, PASSWORD, 5.0),
                                littlegolem.PostedMoves(tmp_path / "state.json"),
                                dry_run=True, once=True)
    looks = lambda: site.requests.count(("GET", "/jsp/invitation/index.jsp"))  # noqa: E731
    for _ in range(12):
        assert runner.one_pass()
    assert looks() == 2  # the first pass and the eleventh
    site.invite(721, "alice", "Dvonn")  # the game list now says "New invitations"
    assert runner.one_pass() and looks() == 3
