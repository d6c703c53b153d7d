"""A season of gipf-littlegolem against the stand-in site, as an operator leaves it: games in
progress and invitations arriving over many passes, opponents that answer at once, games
that end, `max_games` set, a second bot started on the same state file while the first runs
(it exits, or with --wait takes over), and the running bot killed (SIGKILL) at random points.

At the end every game has ended with only legal moves, each invitation was answered once and
rightly, no move was posted twice and no process printed a traceback."""
from __future__ import annotations

import random
import signal
import time

from littlegolem_standin import FAST_ENGINE, start_runner, stop, wait_for, write_config

from engine.tools.littlegolem.standin import serve

MAX_GAMES = 3
ROUNDS = 6
PLAYED = ("Dvonn", "Tzaar")


def test_a_season_with_two_bots_and_kills_keeps_every_promise(tmp_path):
    rng = random.Random(58)
    site, server = serve()
    logs: list[str] = []
    try:
        site.max_games = MAX_GAMES
        site.start_moves = 30  # the games invitations start are in their middle game
        site.add(7001, "tzaar", moves=20, ours=0, seed=1)
        site.add(7002, "dvonn", moves=60, ours=1, seed=2)
        invid = 900
        config = write_config(tmp_path, site, max_games=MAX_GAMES, owner="4242",
                              max_messages=3, engine_setup=FAST_ENGINE)
        held = 0
        for _ in range(ROUNDS):
            for _ in range(rng.randint(1, 3)):  # invitations arrive
                invid += 1
                site.invite(invid, f"p{invid}", rng.choice(PLAYED + ("Chess",)))
            first = start_runner(config)
            time.sleep(rng.uniform(0.3, 1.0))
            second = start_runner(config, "--once")  # exits at once: the first holds the lock
            out, err = second.communicate(timeout=120)
            logs.append(err)
            held += second.returncode == 1 and "--wait" in err
            follower = start_runner(config, "--once", "--wait")  # takes over after the kill
            time.sleep(rng.uniform(0.0, 1.5))
            first.send_signal(signal.SIGKILL)
            logs.append(first.communicate(timeout=60)[1])
            out, err = follower.communicate(timeout=240)
            logs.append(err)
            assert follower.returncode in (0, 1), err  # 1: a pass with a site failure
        before = len(site.requests)
        last = start_runner(config)
        try:  # (its signal handlers are set before it reads the game list)
            wait_for(lambda: ("GET", "/jsp/game/") in site.requests[before:], 120, "a pass")
            wait_for(lambda: all(g.over for g in site.games.values())
                     and all(i.answer is not None for i in site.invites), 240, "the season's end")
        finally:
            status, _, err = stop(last)
            logs.append(err)
        assert status == 0, err
    finally:
        server.shutdown()
        server.server_close()
    assert held >= ROUNDS - 1  # the second bot found the first one's lock
    assert not any("Traceback" in log for log in logs)
    # only legal moves, none posted twice
    assert [p for p in site.posts if p.status != 200] == []
    plies = [(p.gid, p.ply) for p in site.accepted()]
    assert len(plies) == len(set(plies))
    assert sum(game.kind != "hex" for game in site.games.values()) == len(site.games)
    # each invitation answered once, and rightly
    answered = [i for i, _ in site.answers]
    assert len(answered) == len(set(answered)) == len(site.invites)
    assert site.requests.count(("GET", "/Invitation.action")) == len(answered)
    kinds = {i.invid: i.game for i in site.invites}
    assert all(kinds[i] in PLAYED for i, answer in site.answers if answer == "accept")
    assert site.over_cap == []
    assert any(answer == "accept" for _, answer in site.answers)
