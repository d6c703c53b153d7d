"""A stand-in LittleGolem site for gipf-littlegolem's tests (http.server on 127.0.0.1 in a thread).

It serves the login form and its `login2` cookie, the game list (our turn, then the
opponent's), the record downloads (DVONN text at game.txt, TZAAR SGF at game<gid>.txt), the
move form (which applies posted moves with the rules, answers the opponent with a random
legal move unless `reply` is off, and refuses illegal or duplicate moves), the invitation
page and its answers, and the message form.  Faults are injected per request: an error
status, a slow answer, a lost session, another body, a reset connection, a body cut short
of its Content-Length or cut with a Content-Length to match, a refusal page, a record one
move behind or of another game, a list that lags behind a taken move.
"""
from __future__ import annotations

import http.cookies
import http.server
import json
import os
import random
import re
import signal
import socket
import struct
import subprocess
import sys
import threading
import time
import urllib.parse
from dataclasses import dataclass, field
from pathlib import Path
from typing import Optional

from conftest import sigint_as_in_a_terminal

from engine import records
from engine.games.tzaar import notation as tzaar_notation
from engine.games.tzaar.openings import random_opening
from engine.rules import IllegalMove
from engine.tools import littlegolem

REPO = Path(__file__).resolve().parents[1]
USER, PASSWORD = "gipfbot", "s3cret-Passw0rd"
FAST_ENGINE = ["option player random"]  # instant, legal moves: the runner is under test
SLOW = 3.5  # s, an answer slower than the runner's http_timeout (2 s) in these tests
LOGIN_PAGE = ('<html><body><form method="post" action="/jsp/login/">'
              '<input type="text" name="login"><input type="password" name="password">'
              '<input type="submit" value="Sign in"></form></body></html>')
REFUSAL_PAGE = "<html><body><p>Error: your move was rejected.</p></body></html>"
OTHER_PAGE = "<html><body><h1>LittleGolem</h1><p>Welcome back.</p></body></html>"
WORDY_PAGE = ("<html><body><p>Your move is sent.</p><p>Illegal moves are refused; report an "
              "error to the admins.</p></body></html>")


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
    opponent: str = "opponent"

    def __post_init__(self):
        if self.kind != "hex":
            self.game = records.replay(self.record)

    @property
    def our_turn(self) -> bool:
        return (self.kind != "hex" and not self.game.over and self.record.resigned_by is None
                and self.game.side == self.ours)

    @property
    def over(self) -> bool:
        return self.kind == "hex" or self.game.over or self.record.resigned_by is not None

    def text(self, behind: int = 0) -> str:
        if self.malformed is not None:
            return self.malformed
        if self.kind == "hex":
            return "(;FF[4]EV[hex.ch.1]PB[a]PW[b]SZ[13];W[a1];B[b2])"
        record = self.record
        if behind:
            cut = len(record.moves) - behind
            cut -= 1 if self.kind == "dvonn" and cut == 48 else 0  # the forced 49th goes too
            record = records.GameRecord(record.game, record.moves[:cut], white=record.white,
                                        black=record.black, opening=record.opening,
                                        event=record.event)
        return records.write_littlegolem(record)

    def play(self, text: str) -> None:
        if text == "resign":
            self.record.resigned_by = "wb"[self.game.side]
            return
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
    action: tuple
    after: int = 0                   # matching requests let through first
    times: int = 1
    seen: int = 0
    gid: Optional[int] = None        # only the requests about this game (a record, a post)


@dataclass
class Post:
    gid: int
    move: str
    status: int
    ply: int
    taken: bool = False


@dataclass
class Invite:
    invid: int
    opponent: str
    game: str
    answer: Optional[str] = None


@dataclass
class StandIn:
    games: dict = field(default_factory=dict)
    faults: list = field(default_factory=list)
    posts: list = field(default_factory=list)
    requests: list = field(default_factory=list)
    invites: list = field(default_factory=list)
    answers: list = field(default_factory=list)     # (invid, "accept" | "refuse")
    messages: list = field(default_factory=list)    # (to, title, text)
    tries: list = field(default_factory=list)       # the gid of every post, faulted or not
    token: Optional[str] = None
    logins: int = 0
    reply: bool = True               # the opponent answers a move at once
    apply_posts: bool = True         # False: answer 200 and change nothing (a stale site)
    login_redirect: bool = False     # the login answers 303 to the game list
    other_form_status: int = 404     # the answer for a record form that is not the game's
    logged_out_status: int = 200     # the status of the login page answering a lost session
    invitation_page: Optional[str] = None  # served instead of the invitation page while set
    lagging: set = field(default_factory=set)  # gids the list shows waiting after our move
    busy: int = 0                    # requests being answered
    rng: random.Random = field(default_factory=lambda: random.Random(7))
    lock: threading.Lock = field(default_factory=threading.Lock)
    url: str = ""

    # games made by the tests
    def add(self, gid: int, kind: str, moves: int = 0, ours: int = 0, seed: int = 0,
            opponent: str = "opponent", **extra) -> SiteGame:
        rng = random.Random(seed)
        if kind not in ("dvonn", "tzaar"):
            record = records.GameRecord("dvonn")
            self.games[gid] = SiteGame(gid, "hex", ours, record, listed=True, opponent=opponent)
            return self.games[gid]
        opening = random_opening(seed) if kind == "tzaar" else None
        names = (USER, opponent) if ours == 0 else (opponent, USER)
        record = records.GameRecord(kind, [], white=names[0], black=names[1], opening=opening,
                                    event=f"{kind}.test")
        site_game = SiteGame(gid, kind, ours, record, opponent=opponent, **extra)
        game = site_game.game
        while len(record.moves) < moves and not game.over:
            site_game.play(game.move_text(rng.choice(game.legal_moves())))
        self.games[gid] = site_game
        self.opponent(site_game)
        return site_game

    def opponent(self, site_game: SiteGame) -> None:
        while not site_game.over and site_game.game.side != site_game.ours:
            move = self.rng.choice(site_game.game.legal_moves())
            site_game.play(site_game.game.move_text(move))

    def invite(self, invid: int, opponent: str, game: str) -> None:
        self.invites.append(Invite(invid, opponent, game))

    def inject(self, method: str, path: str, *action, after: int = 0, times: int = 1,
               gid: Optional[int] = None) -> None:
        self.faults.append(Fault(method, path, tuple(action), after, times, gid=gid))

    def fault_for(self, method: str, path: str, gid: Optional[int] = None) -> Optional[tuple]:
        with self.lock:
            for fault in self.faults:
                if fault.method == method and re.fullmatch(fault.path, path) \
                        and fault.gid in (None, gid):
                    fault.seen += 1
                    if fault.after < fault.seen <= fault.after + fault.times:
                        return fault.action
        return None

    def idle(self, timeout: float = 30.0) -> None:
        """Wait until no request is being answered (a slow answer's work is done)."""
        end = time.monotonic() + timeout
        while self.busy and time.monotonic() < end:
            time.sleep(0.02)

    # pages
    def page(self, lag: bool = False) -> str:
        ours = [g for g in self.games.values() if g.our_turn or g.listed
                or (lag and g.gid in self.lagging)]
        theirs = [g for g in self.games.values() if g not in ours and not g.over]

        def table(games):
            rows = "".join(f'<tr><td><a href="/jsp/game/game.jsp?gid={g.gid}">#{g.gid}</a></td>'
                           f'<td><a href="/jsp/info/player.jsp?plid={abs(hash(g.opponent)) % 999}">'
                           f"{g.opponent}</a></td><td>{g.kind.capitalize()}</td></tr>"
                           for g in games)
            return f"<table>{rows}</table>"
        invitations = "<p><a href='/jsp/invitation/index.jsp'>New invitations</a></p>" \
            if any(i.answer is None for i in self.invites) else ""
        return (f"<html><body>{invitations}<h3>Games where it is your turn</h3>{table(ours)}"
                f"<h3>Games where it is your opponent&#39;s turn</h3>{table(theirs)}"
                "</body></html>")

    def invitations(self) -> str:
        if self.invitation_page is not None:
            return self.invitation_page
        rows = "".join(
            f"<tr><td><a href='/jsp/info/player.jsp?plid={i.invid}'>{i.opponent}</a></td>"
            f"<td>{i.game}</td><td>2 days</td><td><a href='/Invitation.action?accept=&amp;"
            f"invid={i.invid}'>accept</a> <a href='/Invitation.action?refuse=&amp;invid="
            f"{i.invid}'>refuse</a></td></tr>" for i in self.invites if i.answer is None)
        return ("<html><body><table><tr><td><h2>Invitations</h2>"
                "<p>Your invitations</p><table><tr><th>To</th><th>Game</th></tr></table>"
                "<p>Invitations from other players</p>"
                "<table><tr><th>Player</th><th>Game</th><th>Time</th><th>Your decision</th></tr>"
                f"{rows}</table></td></tr></table></body></html>")

    def answer_invitation(self, query: dict) -> tuple[int, str]:
        kinds = [k for k in ("accept", "refuse") if k in query]
        invid = (query.get("invid") or [""])[0]
        invite = next((i for i in self.invites if str(i.invid) == invid), None)
        if len(kinds) != 1 or invite is None or invite.answer is not None:
            return 200, "<html><body><p>Error: no such invitation.</p></body></html>"
        invite.answer = kinds[0]
        self.answers.append((invite.invid, kinds[0]))
        if kinds[0] == "accept":
            kind = invite.game.lower()
            self.add(max(self.games, default=9000) + 1, kind, ours=1, seed=invite.invid,
                     opponent=invite.opponent)
        return 200, OTHER_PAGE

    def move(self, form: dict, refuse: bool = False) -> tuple[int, str]:
        try:
            site_game = self.games[int(form.get("sendgame", [""])[0])]
            move = form["sendmove"][0]
        except (KeyError, ValueError):
            return 400, "<html>no such game</html>"
        with self.lock:
            ply = len(site_game.record.moves)
            if not site_game.our_turn:
                self.posts.append(Post(site_game.gid, move, 409, ply))
                return 409, "<html>it is not your turn in this game</html>"
            if refuse or not self.apply_posts:
                self.posts.append(Post(site_game.gid, move, 200, ply))
                return 200, REFUSAL_PAGE if refuse else "<html>move sent</html>"
            try:
                if site_game.kind == "dvonn" or move == "resign":
                    site_game.play(dvonn_from_site(move) if move != "resign" else move)
                else:
                    game = site_game.game
                    site_game.play(tzaar_notation.tzaar_from_littlegolem(move, game.cells, game.side))
            except (IllegalMove, records.RecordError) as e:
                self.posts.append(Post(site_game.gid, move, 400, ply))
                return 400, f"<html>illegal move: {e}</html>"
            self.posts.append(Post(site_game.gid, move, 200, ply, taken=True))
            self.lagging.add(site_game.gid)
            if self.reply:
                self.opponent(site_game)
        return 200, "<html><body>move sent</body></html>"

    def accepted(self) -> list:
        return [p for p in self.posts if p.taken]


class Handler(http.server.BaseHTTPRequestHandler):
    site: StandIn
    authorised = False
    protocol_version = "HTTP/1.0"

    def log_message(self, *args):  # quiet
        pass

    def answer(self, status: int, text: str, kind="text/html", cookie=None, cut=None) -> None:
        """cut "short": half the body under the whole body's Content-Length; "cut": half the
        body under a Content-Length to match."""
        body = text.encode()
        sent = body if cut is None else body[:len(body) // 2]
        self.send_response(status)
        self.send_header("Content-Type", f"{kind}; charset=utf-8")
        self.send_header("Content-Length", str(len(sent) if cut == "cut" else len(body)))
        if cookie:
            self.send_header("Set-Cookie", cookie)
        self.end_headers()
        self.wfile.write(sent)
        if cut is not None:
            self.wfile.flush()
            self.close_connection = True

    def reset(self) -> None:
        self.connection.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))
        self.close_connection = True
        self.connection.close()

    def logged_in(self) -> bool:
        jar = http.cookies.SimpleCookie(self.headers.get("Cookie", ""))
        return self.site.token is not None and "login2" in jar \
            and jar["login2"].value == self.site.token

    def handle_one(self, method: str) -> None:
        site = self.site
        with site.lock:
            site.busy += 1
        try:
            self._handle(method)
        finally:
            with site.lock:
                site.busy -= 1

    def _handle(self, method: str) -> None:
        site = self.site
        url = urllib.parse.urlsplit(self.path)
        path = url.path
        length = int(self.headers.get("Content-Length") or 0)
        form = urllib.parse.parse_qs(self.rfile.read(length).decode()) if length else {}
        site.requests.append((method, path))
        about = re.fullmatch(r"/servlet/sgf/(\d+)/.*", path)
        gid = about.group(1) if about else (form.get("sendgame") or [""])[0]
        fault = site.fault_for(method, path, int(gid) if gid.isdigit() else None) or ()
        if method == "POST" and path == "/jsp/game/game.jsp":
            site.tries.append(int(gid) if gid.isdigit() else None)
        kind = fault[0] if fault else None
        self.authorised = self.logged_in()  # when the request came, as a site checks it
        if kind == "status":
            return self.answer(fault[1], "<html>Internal error</html>")
        if kind == "sleep":
            time.sleep(fault[1])
        if kind == "logout":
            site.token = None
            self.authorised = False
        if kind == "body":
            return self.answer(200, fault[1], "text/plain")
        if kind == "reset":
            return self.reset()
        status, text, content, cookie = self._route(method, path, url.query, form, fault)
        if status == 0:
            return None
        if kind == "reset after":
            return self.reset()
        if kind == "wrong after":
            text = OTHER_PAGE
        if kind == "wordy after":
            text = WORDY_PAGE
        cut = {"short": "short", "cut": "cut"}.get(kind or "")
        return self.answer(status, text, content, cookie, cut)

    def _route(self, method, path, query, form, fault) -> tuple[int, str, str, Optional[str]]:
        site = self.site
        kind = fault[0] if fault else None
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
                    return 0, "", "", None
                return 200, "<html>Welcome</html>", "text/html", cookie
            if method == "POST":
                return 200, ("<html><body><p>Wrong login or password.</p>"
                             + LOGIN_PAGE[12:]), "text/html", None
            return 200, LOGIN_PAGE, "text/html", None
        match = re.fullmatch(r"/servlet/sgf/(\d+)/game(\d*)\.txt", path)
        if match and method == "GET":
            return self._record(int(match.group(1)), match.group(2), fault)
        if not self.authorised:
            return site.logged_out_status, LOGIN_PAGE, "text/html", None
        with site.lock:
            if path == "/jsp/game/" and method == "GET":
                return 200, site.page(lag=kind == "lag"), "text/html", None
            if path == "/jsp/invitation/index.jsp" and method == "GET":
                return 200, site.invitations(), "text/html", None
            if path == "/Invitation.action" and method == "GET":
                status, text = site.answer_invitation(urllib.parse.parse_qs(query, True))
                return status, text, "text/html", None
            if path == "/jsp/message/new.jsp" and method == "POST":
                site.messages.append(tuple((form.get(k) or [""])[0]
                                           for k in ("plto", "messagetitle", "message")))
                return 200, "<html><body>Message sent</body></html>", "text/html", None
        if path == "/jsp/game/game.jsp" and method == "POST":
            status, text = site.move(form, refuse=kind == "refuse")
            return status, text, "text/html", None
        return 404, "<html>not found</html>", "text/html", None

    def _record(self, gid: int, form: str, fault) -> tuple[int, str, str, Optional[str]]:
        site = self.site
        site_game = site.games.get(gid)
        kind = fault[0] if fault else None
        if kind == "other":  # another game's record, whatever the address
            with site.lock:
                return 200, site.games[fault[1]].text(), "text/plain", None
        wanted = "tzaar" if form else "dvonn"
        if site_game is None or (form and form != str(gid)):
            return 404, "no such game", "text/plain", None
        if site_game.kind == "hex" and wanted == "tzaar" or site_game.kind == wanted \
                or site_game.malformed is not None:
            with site.lock:
                text = site_game.text(behind=1 if kind == "behind" else 0)
            return 200, text, "text/plain", None
        return site.other_form_status, "no such record", "text/plain", None

    def do_GET(self):
        self.handle_one("GET")

    def do_POST(self):
        self.handle_one("POST")


class Server(http.server.ThreadingHTTPServer):
    daemon_threads = True

    def handle_error(self, request, client_address):
        if not isinstance(sys.exc_info()[1], (ConnectionError, OSError)):  # a client that gave up
            super().handle_error(request, client_address)


def serve() -> tuple[StandIn, Server]:
    stand_in = StandIn()
    handler = type("BoundHandler", (Handler,), {"site": stand_in})
    server = Server(("127.0.0.1", 0), handler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    stand_in.url = f"http://127.0.0.1:{server.server_address[1]}"
    return stand_in, server


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
