"""gipf-littlegolem against a site that fails in every way a site can, each fault over three
`--once` passes: slow, reset, cut and wrong answers to the game list, the records and the
posts; a refusal page; the login page on a post; a record one move behind; a record of the
other game; a list that lags behind a taken move.  For every waiting game the site takes
exactly one legal move, nothing is posted after it took one, no traceback, no engine left.
"""
from __future__ import annotations

import json
import re
import time

import pytest
from littlegolem_standin import OTHER_PAGE, pid_alive, run_main, serve, wait_for, write_config

TIMEOUT = 1.0      # s, the runner's http_timeout here
SLOW = 1.6         # s, an answer slower than that
LIST = "/jsp/game/"
RECORDS = r"/servlet/sgf/\d+/game\d*\.txt"
POSTS = "/jsp/game/game.jsp"


@pytest.fixture
def site():
    stand_in, server = serve()
    stand_in.reply = False  # the opponent never answers: one move per game is all there is
    yield stand_in
    server.shutdown()
    server.server_close()


def three_passes(site, tmp_path, monkeypatch, capsys, **extra) -> list[str]:
    """Three --once passes, each starting once the site is idle and any post without a clear
    answer may be settled (as a cron line's passes would); the passes' logs."""
    config = write_config(tmp_path, site, http_timeout=TIMEOUT, retry_delay=0.05, **extra)
    logs = []
    for _ in range(3):
        site.idle()
        state = tmp_path / "state.json"
        if state.exists():
            games = json.loads(state.read_text())["games"].values()
            wait = max([e.get("settle_after", 0) - time.time() for e in games] + [0])
            time.sleep(wait)
        _, _, err = run_main(monkeypatch, capsys, "--config", str(config), "--once")
        logs.append(err)
    site.idle()
    return logs


def check(site, logs: list[str], gids) -> dict:
    """The assertions every fault shares; the posts of each game, for the table."""
    text = "".join(logs)
    assert "Traceback" not in text, text
    pids = {int(m) for m in re.findall(r"started \(pid (\d+)\)", text)}
    for pid in pids:
        wait_for(lambda pid=pid: not pid_alive(pid), 30, f"engine {pid}'s end")
    assert [p for p in site.posts if p.status == 400] == [], "an illegal move posted"
    outcome = {}
    for gid in gids:
        posts = [p for p in site.posts if p.gid == gid]
        taken = [n for n, p in enumerate(posts) if p.taken]
        assert len(taken) == 1, (gid, posts, text)
        assert taken[0] == len(posts) - 1, f"game {gid}: posted after the site took a move"
        assert site.games[gid].game.side != site.games[gid].ours  # the move is there
        outcome[gid] = posts
    return outcome


def table_row(site, fault: str, outcome: dict) -> str:
    """fault -> games -> outcome, printed for the record (pytest -s shows it)."""
    games = ", ".join(f"{gid} ({site.games[gid].kind}): {site.tries.count(gid)} post(s) sent, "
                      f"{len(posts)} answered by the move form, the last taken"
                      for gid, posts in outcome.items())
    line = f"{fault:<28} | {games}"
    print(line)
    return line


LIST_FAULTS = {
    "list slow": ("sleep", SLOW),
    "list reset": ("reset",),
    "list short of its length": ("short",),
    "list cut, length to match": ("cut",),
    "list wrong page": ("body", OTHER_PAGE),
}


@pytest.mark.parametrize("fault", list(LIST_FAULTS))
def test_a_list_fault_fails_the_pass_and_the_next_plays(site, tmp_path, monkeypatch, capsys,
                                                          fault):
    site.add(11, "dvonn", moves=6, ours=0, seed=1)
    site.add(12, "tzaar", moves=3, ours=1, seed=2)
    site.inject("GET", LIST, *LIST_FAULTS[fault])
    logs = three_passes(site, tmp_path, monkeypatch, capsys)
    assert "cannot list the games" in logs[0] and "posted" not in logs[0], logs[0]
    table_row(site, fault, check(site, logs, [11, 12]))


def test_a_list_that_lags_behind_taken_moves(site, tmp_path, monkeypatch, capsys):
    site.add(11, "dvonn", moves=6, ours=0, seed=1)
    site.add(12, "tzaar", moves=3, ours=1, seed=2)
    site.inject("GET", LIST, "lag", after=1, times=2)  # passes 2 and 3 list both as waiting
    logs = three_passes(site, tmp_path, monkeypatch, capsys)
    for log in logs[1:]:
        assert "2 game(s) waiting" in log and log.count("is to move in the record") == 2, log
    table_row(site, "list lags after a move", check(site, logs, [11, 12]))


RECORD_FAULTS = {  # gid: (kind, fault)
    21: ("dvonn", ("sleep", SLOW)),
    22: ("tzaar", ("reset",)),
    23: ("dvonn", ("short",)),
    24: ("tzaar", ("cut",)),
    25: ("dvonn", ("body", OTHER_PAGE)),
    26: ("tzaar", ("behind",)),
    27: ("dvonn", ("other", 28)),
    28: ("tzaar", ("other", 27)),
    29: ("dvonn", ("other", 21)),   # a DVONN record too, of the game against another player
}


def test_record_faults_skip_the_pass_and_the_next_plays(site, tmp_path, monkeypatch, capsys):
    for n, (gid, (kind, fault)) in enumerate(RECORD_FAULTS.items()):
        site.add(gid, kind, moves=6 + n, ours=(6 + n) % 2, seed=gid, opponent=f"p{gid}")
        site.inject("GET", RECORDS, *fault, gid=gid, times=2 if fault[0] == "behind" else 1)
    logs = three_passes(site, tmp_path, monkeypatch, capsys)
    first = logs[0]
    for expected in ("game 21: cannot download the record: /servlet/sgf/21/game.txt: no answer",
                     "game 22: cannot download the record",
                     "game 23: cannot download the record: /servlet/sgf/23/game.txt: the answer "
                     "stopped after",
                     "game24.txt: the record stops before its end",
                     "game 25: skipped: not a DVONN or TZAAR record",
                     "game 26: skipped: White is to move in the record (move 11), not gipfbot",
                     "game 27: skipped: the record is of a tzaar game but the game list names "
                     "dvonn: not this game's record",
                     "game 28: skipped: the record is of a dvonn game but the game list names "
                     "tzaar",
                     "game 29: skipped: the record is of a game against p21 but the game list "
                     "names p29: not this game's record"):
        assert expected in first, (expected, first)
    outcome = check(site, logs, list(RECORD_FAULTS))
    for gid, (kind, fault) in RECORD_FAULTS.items():
        table_row(site, f"record {fault[0]} ({kind})", {gid: outcome[gid]})


POST_FAULTS = {  # gid: (kind, fault, posts the move form answered)
    31: ("dvonn", ("sleep", SLOW), 1),          # taken after the runner gave up
    32: ("tzaar", ("reset",), 1),               # reset before the form read it: posted again
    33: ("dvonn", ("reset after",), 1),         # taken, then the connection reset
    34: ("tzaar", ("short",), 1),               # taken, the answer cut short
    35: ("dvonn", ("wrong after",), 1),         # taken, answered with another page
    36: ("tzaar", ("refuse",), 2),              # a refusal page: posted again
    37: ("dvonn", ("logout",), 1),              # the login page: logged in, posted again at once
    38: ("tzaar", ("status", 500), 1),          # an error status: posted again
    40: ("dvonn", ("wordy after",), 1),         # taken, the answer speaks of refusals
}


def test_post_faults_are_settled_with_one_move_each(site, tmp_path, monkeypatch, capsys):
    for n, (gid, (kind, fault, _)) in enumerate(POST_FAULTS.items()):
        site.add(gid, kind, moves=4 + n, ours=(4 + n) % 2, seed=gid)
        site.inject("POST", POSTS, *fault, gid=gid)
    site.add(39, "dvonn", moves=12, ours=0, seed=39)  # its record lags right after the post
    site.inject("GET", RECORDS, "behind", gid=39, after=1)
    logs = three_passes(site, tmp_path, monkeypatch, capsys, workers=1)  # one game at a time
    outcome = check(site, logs, [*POST_FAULTS, 39])
    assert len(outcome[39]) == site.tries.count(39) == 1
    assert "game 39 (dvonn, move 13): the site answered" in logs[0]
    assert " 39" not in logs[1].split("waiting for our move")[1].splitlines()[0]  # it was taken
    table_row(site, "record behind after a post", {39: outcome[39]})
    for gid, (kind, fault, posts) in POST_FAULTS.items():
        assert len(outcome[gid]) == posts, (gid, outcome[gid], "".join(logs))
        assert site.tries.count(gid) == posts + (fault[0] in ("reset", "status", "logout"))
        table_row(site, f"post {fault[0]} ({kind})", {gid: outcome[gid]})
    first = logs[0]
    assert "game 36 (tzaar, move 10): the site did not take" in first
    assert "Error: your move was rejected." in first
    assert "game 38 (tzaar, move 12): the site did not take" in first and "HTTP 500" in first
    assert "/jsp/game/game.jsp: the login page: the session has ended" in first
    assert "game 32 (tzaar, move 6): posted" in first and "without a clear answer" in first
    assert "game 32: the record still waits for move 6: the post of" in logs[1]
    assert "not taken; posting again" in logs[1]
    assert "0 game(s) waiting" in logs[2]
