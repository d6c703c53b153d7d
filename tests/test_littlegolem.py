"""gipf-littlegolem against a stand-in LittleGolem site (http.server on 127.0.0.1 in a thread).

The stand-in serves the login form and its `login2` cookie, the game list, the record
downloads (DVONN text at game.txt, TZAAR SGF at game<gid>.txt) and the move form, which
applies posted moves with the rules, answers the opponent with a random legal move, and
refuses illegal or duplicate moves.  Faults (500s, slow answers, a logged-out session,
malformed records) are injected per request.
"""
from __future__ import annotations

import http.cookies
import http.server
import json
import os
import random
import re
import signal
import subprocess
import sys
import threading
import time
import urllib.parse
from dataclasses import dataclass, field
from pathlib import Path
from typing import Optional

import pytest
from conftest import shared_dir, sigint_as_in_a_terminal
from hypothesis import given, settings
from hypothesis import strategies as st

from engine import records
from engine.games.dvonn import notation as dvonn_notation
from engine.games.dvonn.board import DVONN_BOARD
from engine.games.dvonn.rules import DvonnGame
from engine.games.tzaar import notation as tzaar_notation
from engine.games.tzaar.openings import random_opening
from engine.rules import IllegalMove
from engine.tools import littlegolem
from engine.tools.littlegolem_site import site_move, waiting_games

REPO = Path(__file__).resolve().parents[1]
USER, PASSWORD = "gipfbot", "s3cret-Passw0rd"
FAST_ENGINE = ["option player random"]  # instant, legal moves: the runner is under test
SLOW = 3.5  # s, an answer slower than the runner's http_timeout (2 s) in these tests
SEARCH_ENGINE = ["option depth 2"]  # the core search, kept short

LOGIN_PAGE = ('<html><body><form method="post" action="/jsp/login/">'
              '<input type="text" name="login"><input type="password" name="password">'
              '<input type="submit" value="Sign in"></form></body></html>')


# --- the stand-in site ------------------------------------------------------
def dvonn_from_site(move: str) -> str:
    """The stand-in's own reading of the DVONN move form ('gd' -> 'G2', 'adbd' -> 'A2-B2'),
    written apart from the runner's mapping so that the two check each other."""
    if move == "pass":
        return "pass"
    if len(move) not in (2, 4) or not re.fullmatch(r"([a-k][a-e])+", move):
        raise IllegalMove(f"{move!r} is not in the DVONN move form")
    points = [f"{move[i].upper()}{5 - 'abcde'.index(move[i + 1])}" for i in range(0, len(move), 2)]
    return "-".join(points)


@dataclass
class SiteGame:
    gid: int
    kind: str                       # dvonn | tzaar | hex
    ours: int                       # the side we play: 0 White, 1 Black
    record: records.GameRecord
    game: object = None
    listed: bool = False            # shown among our games even when it is not our turn
    malformed: Optional[str] = None  # served instead of the record while set

    def __post_init__(self):
        if self.kind != "hex":
            self.game = records.replay(self.record)

    @property
    def our_turn(self) -> bool:
        return (self.kind != "hex" and not self.game.over and self.record.resigned_by is None
                and self.game.side == self.ours)

    def text(self) -> str:
        if self.malformed is not None:
            return self.malformed
        if self.kind == "hex":
            return "(;FF[4]EV[hex.ch.1]PB[a]PW[b]SZ[13];W[a1];B[b2])"
        return records.write_littlegolem(self.record)

    def play(self, text: str) -> None:
        move = self.game.play_text(text)
        self.record.moves.append(self.game.move_text(move))
        if self.kind == "dvonn" and len(self.record.moves) == 48:  # the site's forced 49th
            last = self.game.legal_moves()[0]
            self.game.push(last)
            self.record.moves.append(self.game.move_text(last))


@dataclass
class Fault:
    method: str
    path: str                        # a regular expression matched against the path
    action: tuple                    # ("status", 500) | ("sleep", s) | ("logout",) | ("body", s)
    after: int = 0                   # matching requests let through first
    times: int = 1
    seen: int = 0


@dataclass
class Post:
    gid: int
    move: str
    status: int
    ply: int


@dataclass
class StandIn:
    games: dict = field(default_factory=dict)
    faults: list = field(default_factory=list)
    posts: list = field(default_factory=list)
    requests: list = field(default_factory=list)
    token: Optional[str] = None
    logins: int = 0
    apply_posts: bool = True         # False: answer 200 and change nothing (a stale site)
    login_redirect: bool = False     # the login answers 303 to the game list
    other_form_status: int = 404     # the answer for a record form that is not the game's
    logged_out_status: int = 200     # the status of the login page answering a lost session
    rng: random.Random = field(default_factory=lambda: random.Random(7))
    lock: threading.Lock = field(default_factory=threading.Lock)
    url: str = ""

    # games made by the tests
    def add(self, gid: int, kind: str, moves: int = 0, ours: int = 0, seed: int = 0,
            **extra) -> SiteGame:
        rng = random.Random(seed)
        if kind in ("dvonn", "tzaar"):
            opening = random_opening(seed) if kind == "tzaar" else None
        else:
            record = records.GameRecord("dvonn")
            self.games[gid] = SiteGame(gid, "hex", ours, record, listed=True)
            return self.games[gid]
        record = records.GameRecord(kind, [], white="white", black="black", opening=opening,
                                    event=f"{kind}.test")
        site_game = SiteGame(gid, kind, ours, record, **extra)
        game = site_game.game
        while len(record.moves) < moves and not game.over:
            site_game.play(game.move_text(rng.choice(game.legal_moves())))
        self.games[gid] = site_game
        self.opponent(site_game)
        return site_game

    def opponent(self, site_game: SiteGame) -> None:
        while site_game.kind != "hex" and not site_game.game.over \
                and site_game.game.side != site_game.ours:
            move = self.rng.choice(site_game.game.legal_moves())
            site_game.play(site_game.game.move_text(move))

    def inject(self, method: str, path: str, *action, after: int = 0, times: int = 1) -> None:
        self.faults.append(Fault(method, path, tuple(action), after, times))

    def fault_for(self, method: str, path: str) -> Optional[tuple]:
        with self.lock:
            for fault in self.faults:
                if fault.method == method and re.fullmatch(fault.path, path):
                    fault.seen += 1
                    if fault.after < fault.seen <= fault.after + fault.times:
                        return fault.action
        return None

    def page(self) -> str:
        ours = [g for g in self.games.values() if g.our_turn or g.listed]
        theirs = [g for g in self.games.values() if g not in ours]

        def table(games):
            rows = "".join(f'<tr><td><a href="/jsp/game/game.jsp?gid={g.gid}">#{g.gid}</a></td>'
                           f"<td>{g.kind.capitalize()}</td></tr>" for g in games)
            return f"<table>{rows}</table>"
        return (f"<html><body><h3>Games where it is your turn</h3>{table(ours)}"
                f"<h3>Games where it is your opponent&#39;s turn</h3>{table(theirs)}"
                "</body></html>")

    def move(self, form: dict) -> tuple[int, str]:
        try:
            site_game = self.games[int(form.get("sendgame", [""])[0])]
            move = form["sendmove"][0]
        except (KeyError, ValueError):
            return 400, "no such game"
        with self.lock:
            ply = len(site_game.record.moves)
            if not site_game.our_turn:
                self.posts.append(Post(site_game.gid, move, 409, ply))
                return 409, "it is not your turn in this game"
            if not self.apply_posts:
                self.posts.append(Post(site_game.gid, move, 200, ply))
                return 200, "move sent"
            try:
                if site_game.kind == "dvonn":
                    site_game.play(dvonn_from_site(move))
                else:
                    game = site_game.game
                    site_game.play(tzaar_notation.tzaar_from_littlegolem(move, game.cells, game.side))
            except (IllegalMove, records.RecordError) as e:
                self.posts.append(Post(site_game.gid, move, 400, ply))
                return 400, f"illegal move: {e}"
            self.posts.append(Post(site_game.gid, move, 200, ply))
            self.opponent(site_game)
        return 200, "move sent"

    def accepted(self) -> list:
        return [p for p in self.posts if p.status == 200]


class Handler(http.server.BaseHTTPRequestHandler):
    site: StandIn

    def log_message(self, *args):  # quiet
        pass

    def answer(self, status: int, text: str, kind="text/html", cookie=None) -> None:
        body = text.encode()
        self.send_response(status)
        self.send_header("Content-Type", f"{kind}; charset=utf-8")
        self.send_header("Content-Length", str(len(body)))
        if cookie:
            self.send_header("Set-Cookie", cookie)
        self.end_headers()
        self.wfile.write(body)

    def logged_in(self) -> bool:
        jar = http.cookies.SimpleCookie(self.headers.get("Cookie", ""))
        return self.site.token is not None and "login2" in jar \
            and jar["login2"].value == self.site.token

    def handle_one(self, method: str) -> None:
        site = self.site
        path = urllib.parse.urlsplit(self.path).path
        length = int(self.headers.get("Content-Length") or 0)
        form = urllib.parse.parse_qs(self.rfile.read(length).decode()) if length else {}
        site.requests.append((method, path))
        fault = site.fault_for(method, path)
        if fault is not None:
            if fault[0] == "status":
                return self.answer(fault[1], "<html>Internal error</html>")
            if fault[0] == "sleep":
                time.sleep(fault[1])
            if fault[0] == "logout":
                site.token = None
            if fault[0] == "body":
                return self.answer(200, fault[1], "text/plain")
        if path == "/jsp/login/":
            if method == "POST" and form.get("login") == [USER] \
                    and form.get("password") == [PASSWORD]:
                site.logins += 1
                site.token = f"t{site.logins}"
                cookie = f"login2={site.token}; Path=/"
                if site.login_redirect:
                    self.send_response(303)
                    self.send_header("Location", "/jsp/game/")
                    self.send_header("Set-Cookie", cookie)
                    self.send_header("Content-Length", "0")
                    self.end_headers()
                    return None
                return self.answer(200, "<html>Welcome</html>", cookie=cookie)
            return self.answer(200, LOGIN_PAGE)
        match = re.fullmatch(r"/servlet/sgf/(\d+)/game(\d*)\.txt", path)
        if match and method == "GET":
            site_game = site.games.get(int(match.group(1)))
            wanted = "tzaar" if match.group(2) else "dvonn"
            if site_game is None or (match.group(2) and match.group(2) != match.group(1)):
                return self.answer(404, "no such game")
            if site_game.kind == "hex" and wanted == "tzaar" or site_game.kind == wanted \
                    or site_game.malformed is not None:
                with site.lock:
                    text = site_game.text()
                return self.answer(200, text, "text/plain")
            return self.answer(site.other_form_status, "no such record")
        if not self.logged_in():
            return self.answer(site.logged_out_status, LOGIN_PAGE)
        if path == "/jsp/game/" and method == "GET":
            with site.lock:
                page = site.page()
            return self.answer(200, page)
        if path == "/jsp/game/game.jsp" and method == "POST":
            status, text = site.move(form)
            return self.answer(status, f"<html><p>{text}</p></html>")
        return self.answer(404, "not found")

    def do_GET(self):
        self.handle_one("GET")

    def do_POST(self):
        self.handle_one("POST")


class Server(http.server.ThreadingHTTPServer):
    daemon_threads = True

    def handle_error(self, request, client_address):
        if not isinstance(sys.exc_info()[1], ConnectionError):  # a client that gave up
            super().handle_error(request, client_address)


@pytest.fixture
def site():
    stand_in = StandIn()
    handler = type("BoundHandler", (Handler,), {"site": stand_in})
    server = Server(("127.0.0.1", 0), handler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    stand_in.url = f"http://127.0.0.1:{server.server_address[1]}"
    yield stand_in
    server.shutdown()
    server.server_close()


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
    for bad in ("l1", "a6", "g2g", "", "resign"):
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


def test_the_game_list_is_the_table_before_the_opponents_turn():
    page = ('<a href="/jsp/game/game.jsp?gid=9">nav</a> Games where it is your turn'
            '<a href="game.jsp?gid=12">x</a><a href="game.jsp?x=1&amp;gid=34">y</a>'
            '<a href="game.jsp?gid=12">again</a>'
            "Games where it is your opponent&#8217;s turn <a href='game.jsp?gid=56'>z</a>")
    assert waiting_games(page) == [9, 12, 34]
    assert waiting_games("Games where it is your turn <table></table>") == []
    with pytest.raises(littlegolem.SiteError):
        waiting_games("<html>Service unavailable</html>")


@settings(max_examples=200, deadline=None)
@given(st.text(alphabet=st.one_of(st.sampled_from(list("gamejsp?=&;.<>'\" 0123456789abcdekqrs-")),
                                  st.characters()), max_size=80),
       st.sampled_from(["dvonn", "tzaar", "go"]))
def test_hostile_text_gives_a_list_or_a_site_error_and_a_move_or_a_value_error(text, game):
    for page in (text, f"Games where it is your turn {text}",
                 f"{text} Games where it is your opponent's turn"):
        try:
            gids = waiting_games(page)
        except littlegolem.SiteError:
            continue
        assert all(isinstance(gid, int) and gid >= 0 for gid in gids)
        assert len(gids) == len(set(gids))
    try:
        move = site_move(game, text)
    except ValueError:
        return
    assert re.fullmatch(r"pass|([a-k][a-e]){1,2}" if game == "dvonn"
                        else r"[k-s]{4}(-([k-s]{4}|pass))?", move)


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
    site.inject("GET", r"/servlet/sgf/101/game\.txt", "body", "1. g2 zz9 garbage", after=4)
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
                     "game 104: skipped: ", "the site refused",
                     "retrying in", "SIGTERM: stopping"):
        assert expected in err, expected
    assert PASSWORD not in err
    assert not any("Traceback" in line for line in err.splitlines())
    state = json.loads((tmp_path / "state.json").read_text())
    assert state["format"] == 1 and set(state["games"]) <= {"101", "102", "103", "104"}
    assert {entry["status"] for entry in state["games"].values()} <= {"posted", "sending"}


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
    site.add(304, "dvonn", moves=4, seed=13, malformed="Event [x] 1. g2 g2 2.")
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


def test_the_state_file_stops_a_second_post_for_the_same_ply(site, tmp_path, monkeypatch,
                                                             capsys):
    site.add(401, "tzaar", ours=0, seed=18)
    site.add(402, "dvonn", moves=3, ours=1, seed=19)
    site.apply_posts = False  # the site keeps listing the games as if nothing was posted
    config = write_config(tmp_path, site)
    status, _, err = run_main(monkeypatch, capsys, "--config", str(config), "--once")
    assert status == 0, err
    assert sorted(p.gid for p in site.posts) == [401, 402]
    state = json.loads((tmp_path / "state.json").read_text())
    assert {gid: entry["status"] for gid, entry in state["games"].items()} == \
        {"401": "posted", "402": "posted"}
    assert state["games"]["401"]["ply"] == 0 and state["games"]["402"]["ply"] == 3
    for _ in range(2):
        status, _, err = run_main(monkeypatch, capsys, "--config", str(config), "--once")
        assert status == 0, err
        assert len(site.posts) == 2
        assert "game 401: skipped: move 1 (" in err and "already posted; not posting again" in err
    # a site that times out on the post may have taken it: counted as posted
    site.add(403, "tzaar", ours=0, seed=20)
    site.inject("POST", "/jsp/game/game.jsp", "sleep", SLOW)
    status, _, err = run_main(monkeypatch, capsys, "--config", str(config), "--once")
    assert status == 1 and "without a clear answer" in err, err
    wait_for(lambda: [p.gid for p in site.posts].count(403) == 1, 30, "the slow post")
    status, _, err = run_main(monkeypatch, capsys, "--config", str(config), "--once")
    assert [p.gid for p in site.posts].count(403) == 1
    assert json.loads((tmp_path / "state.json").read_text())["games"]["403"]["status"] == \
        "sending"


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
    assert "refused the login of 'gipfbot'" in err
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
        full = SiteGame(gid, kind, 0, record, listed=True)
        assert full.game.over or record.resigned_by is not None  # finished: skipped
        site.games[gid] = full
    demo = records.read_record((folder / "dvonn-demo.txt").read_bytes())
    tzaar = records.read_record((folder / "game2558925.txt").read_bytes())
    for gid, record, cut in ((902, demo, 60), (903, tzaar, 10)):
        part = records.GameRecord(record.game, record.moves[:cut], white=record.white,
                                  black=record.black, opening=record.opening)
        site.games[gid] = SiteGame(gid, record.game, records.replay(part).side, part)
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
    assert status == 1 and "not posting" in err and "cannot write the state file" in err
    assert site.posts == []
    site.requests.clear()
    corrupt = tmp_path / "corrupt.json"
    for text in ("{not json", '{"format": 2, "games": {}}', '{"format": 1, "games": {"1": 3}}'):
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
