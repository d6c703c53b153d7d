"""The LittleGolem site as gipf-littlegolem sees it: login, the games waiting for our move,
record downloads, the move form, and the move-form notation.

Only the standard library: urllib.request with an http.cookiejar for the `login2` session
cookie.  Every answer is read bounded; every failure is a SiteError with a one-line message
(never the password, never a whole page).
"""
from __future__ import annotations

import html
import logging
import re
import socket
import threading
import urllib.error
import urllib.parse
import urllib.request
from dataclasses import dataclass
from http.cookiejar import CookieJar
from typing import Optional

from engine import records
from engine.games import SPECS, spec

LOGIN_PATH = "/jsp/login/"
GAME_LIST_PATH = "/jsp/game/"
MOVE_PATH = "/jsp/game/game.jsp"
SESSION_COOKIE = "login2"
OPPONENTS_TURN = "games where it is your opponent's turn"
OUR_TURN = "games where it is your turn"
PAGE_LIMIT = 4 << 20        # a game list or record is a few kB; refuse anything huge
USER_AGENT = "gipf-littlegolem (Gipfbot)"

log = logging.getLogger("gipf-littlegolem")

# The record downloads (one game's SGF-like form, another's text), tried in this order: the
# game list does not say which game a gid is, so neither can the address; the content does
# (a record found at another game's address is still read as its own game's).
RECORD_FORMS = ("/servlet/sgf/{gid}/game{gid}.txt", "/servlet/sgf/{gid}/game.txt")

_GID = re.compile(r"game\.jsp\?(?:[^\"'>\s]*&)?gid=(\d+)")
_PASSWORD_INPUT = re.compile(r"<input\b[^>]*\b(?:type|name)\s*=\s*[\"']?password\b", re.I)


class SiteError(Exception):
    """The site could not be used this time (HTTP error, timeout, unexpected page)."""


class LoginError(SiteError):
    """The site refused the account's name and password."""


class PostRejected(SiteError):
    """The move form answered with an error: the move was not taken."""


class PostUnknown(SiteError):
    """No clear answer to a posted move (a timeout, a dropped connection): it may be taken."""


class _LoginPageAnswer(Exception):
    """A record download answered with the login page."""


class _NotLoggedIn(SiteError):
    """An answer 401 or 403: the session is not (or no longer) valid."""


_SESSION_STATUSES = (401, 403)


def played_games() -> list[str]:
    """The games LittleGolem plays: those whose GameSpec.tools has a LittleGolem move form."""
    return [name for name, game in SPECS.items() if game.tools.littlegolem_move is not None]


def site_move(game: str, move: str) -> str:
    """A move in its record's notation as LittleGolem's move form takes it (the game's
    GameSpec.tools.littlegolem_move: e.g. DVONN 'g2' -> 'gd', TZAAR 'prqq-kplp' as it is).
    ValueError for anything else."""
    form = spec(game).tools.littlegolem_move if game in SPECS else None
    if form is None:
        raise ValueError(f"no LittleGolem move form for the game {game!r}")
    return form(move)


def is_login_page(page: str) -> bool:
    """The login form (the site's answer to a request without a valid session)."""
    return "<form" in page.lower() and _PASSWORD_INPUT.search(page) is not None


def waiting_games(page: str) -> list[int]:
    """The gids of the games waiting for our move: the game links before the heading of
    the games where it is the opponent's turn.  SiteError for a page that is not a list."""
    text = html.unescape(page).replace("\u2019", "'")
    lower = text.lower()
    end = lower.find(OPPONENTS_TURN)
    if end < 0:
        if lower.find(OUR_TURN) < 0:
            raise SiteError("the game list page has neither games where it is our turn nor "
                            "games where it is the opponent's")
        end = len(text)
    gids: list[int] = []
    for match in _GID.finditer(text, 0, end):
        gid = int(match.group(1))
        if gid not in gids:
            gids.append(gid)
    return gids


@dataclass
class Download:
    """A game's record as fetched: its game (from the content), the record, or why not."""

    gid: int
    game: Optional[str]                 # a registered game's name | None (another game, unreadable)
    record: Optional[records.GameRecord]
    problem: Optional[str] = None       # why there is no record


class Site:
    """One account on a LittleGolem site; safe to share between worker threads."""

    def __init__(self, base_url: str, user: str, password: str, timeout: float) -> None:
        self.base_url = base_url.rstrip("/")
        self.user = user
        self._password = password
        self.timeout = timeout
        self.cookies = CookieJar()
        self._opener = urllib.request.build_opener(urllib.request.HTTPCookieProcessor(self.cookies))
        self._login_lock = threading.Lock()
        self._logins = 0  # sessions opened: a worker whose session ended logs in only once more

    def __repr__(self) -> str:  # never the password
        return f"Site({self.base_url!r}, user={self.user!r})"

    # --- HTTP -----------------------------------------------------------------
    def _request(self, path: str, form: Optional[dict] = None) -> tuple[int, bytes, str]:
        """(status, body, charset); urllib.error.HTTPError for 4xx/5xx, SiteError otherwise."""
        data = urllib.parse.urlencode(form).encode() if form is not None else None
        request = urllib.request.Request(self.base_url + path, data=data,
                                         headers={"User-Agent": USER_AGENT})
        with self._opener.open(request, timeout=self.timeout) as response:
            body = response.read(PAGE_LIMIT + 1)
            if len(body) > PAGE_LIMIT:
                raise SiteError(f"{path}: the answer is larger than {PAGE_LIMIT} bytes")
            return response.status, body, response.headers.get_content_charset() or "utf-8"

    def _fetch(self, path: str, form: Optional[dict] = None) -> tuple[int, bytes, str]:
        """_request with every failure but an HTTP status turned into one SiteError line."""
        try:
            return self._request(path, form)
        except urllib.error.HTTPError:
            raise
        except TimeoutError:  # socket.timeout is TimeoutError
            raise SiteError(f"{path}: no answer within {self.timeout:g} s") from None
        except urllib.error.URLError as e:
            raise SiteError(f"{path}: {_reason(e.reason)}") from None
        except (OSError, ValueError) as e:  # a reset connection, a bad status line
            raise SiteError(f"{path}: {_reason(e)}") from None

    def _page(self, path: str, form: Optional[dict] = None) -> str:
        try:
            _, body, charset = self._fetch(path, form)
        except urllib.error.HTTPError as e:
            e.close()
            kind = _NotLoggedIn if e.code in _SESSION_STATUSES else SiteError
            raise kind(f"{path}: HTTP {e.code} {e.reason}") from None
        return _decode(body, charset)

    # --- session --------------------------------------------------------------
    def logged_in(self) -> bool:
        return any(cookie.name == SESSION_COOKIE for cookie in self.cookies)

    def login(self, ended: Optional[int] = None) -> None:
        """A new session; LoginError if the site does not give the session cookie.  `ended`:
        the session (a `session()` value) the caller saw end; if another worker has logged in
        since, that newer session is kept (logging in again would end it under that worker)."""
        with self._login_lock:
            if ended is not None and ended != self._logins:
                return
            self.cookies.clear()
            try:
                self._page(LOGIN_PATH, {"login": self.user, "password": self._password})
            except _NotLoggedIn:
                pass  # no session cookie either: refused below
            if not self.logged_in():
                raise LoginError(f"the site refused the login of {self.user!r} (no "
                                 f"{SESSION_COOKIE} cookie): check the name and password")
            self._logins += 1
            log.info("logged in as %s", self.user)

    def session(self) -> int:
        return self._logins

    def ensure_login(self) -> None:
        if not self.logged_in():
            self.login()

    def _logged_page(self, path: str, form: Optional[dict] = None) -> str:
        """A page that needs the session: log in again once if the login page comes back."""
        session = self.session()
        try:
            page: Optional[str] = self._page(path, form)
        except _NotLoggedIn as e:
            log.info("%s: the session has ended", e)
            page = None
        if page is None or is_login_page(page):
            if page is not None:
                log.info("%s: the login page: the session has ended", path)
            self.login(session)
            page = self._page(path, form)
            if is_login_page(page):
                raise SiteError(f"{path}: still the login page after logging in")
        return page

    # --- games ----------------------------------------------------------------
    def waiting_games(self) -> list[int]:
        return waiting_games(self._logged_page(GAME_LIST_PATH))

    def download(self, gid: int) -> Download:
        """The game's record, told apart by content; SiteError when the site fails."""
        session = self.session()
        try:
            return self._download(gid)
        except _LoginPageAnswer as e:  # the session ended: once more after logging in
            log.info("%s: the session has ended", e)
            self.login(session)
        try:
            return self._download(gid)
        except _LoginPageAnswer as e:
            return Download(gid, None, None, f"{e}: the login page instead of a record")

    def _download(self, gid: int) -> Download:
        tried: list[str] = []     # forms that are not this game's record
        failed: list[str] = []    # forms the site failed to answer
        for template in RECORD_FORMS:
            path = template.format(gid=gid)
            try:
                _, body, _ = self._fetch(path)
            except urllib.error.HTTPError as e:
                e.close()
                if e.code in _SESSION_STATUSES:
                    raise _LoginPageAnswer(path) from None
                (tried if e.code in (404, 410) else failed).append(f"{path}: HTTP {e.code}")
                continue
            except SiteError as e:
                failed.append(str(e))
                continue
            text = records.decode_text(body)
            if is_login_page(text):
                raise _LoginPageAnswer(path)
            try:
                game = records.format_game(records.detect_format(text))
            except records.RecordError as e:
                tried.append(f"{path}: {e}")
                continue
            try:
                return Download(gid, game, records.read_record(text))
            except records.RecordError as e:
                return Download(gid, game, None, f"an unreadable {game} record: {e}")
        if failed:  # the record may be behind the form that failed: try again later
            raise SiteError("; ".join(failed + tried))
        games = " or ".join(spec(name).title for name in played_games())
        return Download(gid, None, None, f"not a {games} record (" + "; ".join(tried) + ")")

    def post_move(self, gid: int, move: str) -> int:
        """Send a move (site notation); the HTTP status.  PostRejected when the site answers
        with an error, PostUnknown when it may have taken the move without saying so."""
        form = {"sendgame": str(gid), "sendmove": move}
        for attempt in (1, 2):
            session = self.session()
            try:
                status, body, charset = self._request(MOVE_PATH, form)
            except urllib.error.HTTPError as e:
                detail = _first_text(e.read(2000)) if e.fp is not None else ""
                e.close()
                if e.code in _SESSION_STATUSES and attempt == 1:  # the move was not taken
                    log.info("%s: HTTP %d: the session has ended", MOVE_PATH, e.code)
                    self.login(session)
                    continue
                raise PostRejected(f"HTTP {e.code} {e.reason}" +
                                   (f": {detail}" if detail else "")) from None
            except urllib.error.URLError as e:
                if isinstance(e.reason, (ConnectionRefusedError, socket.gaierror)):
                    raise PostRejected(f"not sent: {_reason(e.reason)}") from None
                raise PostUnknown(_reason(e.reason)) from None
            except TimeoutError:  # socket.timeout is TimeoutError
                raise PostUnknown(f"no answer within {self.timeout:g} s") from None
            except (OSError, ValueError) as e:
                raise PostUnknown(_reason(e)) from None
            if not is_login_page(_decode(body, charset)):
                return status
            if attempt == 1:  # not logged in: the move was not taken
                log.info("%s: the login page: the session has ended", MOVE_PATH)
                self.login(session)
        raise PostRejected("still the login page after logging in")


def _decode(body: bytes, charset: str) -> str:
    try:
        return body.decode(charset, errors="replace")
    except LookupError:  # a charset Python does not know
        return body.decode("utf-8", errors="replace")


def _reason(error: object) -> str:
    text = str(error) or type(error).__name__
    return text.splitlines()[0][:200] if text else type(error).__name__


def _first_text(body: bytes) -> str:
    """The first words of an error page, tags removed, for a log line."""
    text = re.sub(r"<[^>]*>", " ", body.decode("utf-8", errors="replace"))
    return " ".join(html.unescape(text).split())[:160]
