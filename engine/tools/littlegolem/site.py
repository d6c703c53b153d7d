"""The LittleGolem site as gipf-littlegolem sees it: login, the game list, record downloads,
the move form, the invitations and their answers, and messages.

Only the standard library: urllib.request with an http.cookiejar for the `login2` session
cookie.  Every answer is read bounded and must be whole (as long as its Content-Length, an
HTML page up to its `</html>`, a record up to its end); every failure is a SiteError with a
one-line message (never the password, never a whole page).
"""
from __future__ import annotations

import http.client
import logging
import socket
import threading
import urllib.error
import urllib.parse
import urllib.request
from dataclasses import dataclass
from http.cookiejar import CookieJar
from typing import Callable, Optional

from engine import records
from engine.games import spec

from . import pages
from .notation import played_games

LOGIN_PATH = "/jsp/login/"
GAME_LIST_PATH = "/jsp/game/"
MOVE_PATH = "/jsp/game/game.jsp"
INVITATIONS_PATH = "/jsp/invitation/index.jsp"
ANSWER_PATH = "/Invitation.action"
MESSAGE_PATH = "/jsp/message/new.jsp"
SESSION_COOKIE = "login2"
PAGE_LIMIT = 4 << 20        # a game list or record is a few kB; refuse anything huge
USER_AGENT = "gipf-littlegolem (Gipfbot)"

log = logging.getLogger("gipf-littlegolem")

# The record downloads: the TZAAR SGF-like form, then the DVONN text.  A game list row that
# names the game puts its own form first; the content always tells the game.
RECORD_FORMS = {"tzaar": "/servlet/sgf/{gid}/game{gid}.txt", "dvonn": "/servlet/sgf/{gid}/game.txt"}


class SiteError(Exception):
    """The site could not be used this time (HTTP error, timeout, unexpected page)."""


class LoginError(SiteError):
    """The site refused the account's name and password."""


class PostRejected(SiteError):
    """The site answered a post, and not with its acceptance: nothing was taken."""


class PostUnknown(SiteError):
    """No clear answer to a post (a timeout, a dropped or cut answer): it may be taken.
    timed_out: the site may still be working on it."""

    def __init__(self, message: str, timed_out: bool = False) -> None:
        super().__init__(message)
        self.timed_out = timed_out


class _LoginPageAnswer(Exception):
    """A record download answered with the login page."""


class _NotLoggedIn(SiteError):
    """An answer 401 or 403: the session is not (or no longer) valid."""


_SESSION_STATUSES = (401, 403)


@dataclass
class Download:
    """A game's record as fetched: its game (from the content), the record, or why not."""

    gid: int
    game: Optional[str]                 # a registered game's name | None (another game, unreadable)
    record: Optional[records.GameRecord]
    problem: Optional[str] = None       # why there is no record


@dataclass
class GameList:
    games: list[pages.ListedGame]
    new_invitations: bool               # the page says "New invitations"

    @property
    def waiting(self) -> list[pages.ListedGame]:
        return [game for game in self.games if game.our_turn]


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
        """(status, body, charset); urllib.error.HTTPError for 4xx/5xx; a body shorter than its
        Content-Length is an http.client.IncompleteRead."""
        data = urllib.parse.urlencode(form).encode() if form is not None else None
        request = urllib.request.Request(self.base_url + path, data=data,
                                         headers={"User-Agent": USER_AGENT})
        with self._opener.open(request, timeout=self.timeout) as response:
            body = response.read(PAGE_LIMIT + 1)
            if len(body) > PAGE_LIMIT:
                raise SiteError(f"{path}: the answer is larger than {PAGE_LIMIT} bytes")
            length = response.headers.get("Content-Length", "").strip()
            if length.isdigit() and len(body) < int(length):
                raise http.client.IncompleteRead(body, int(length) - len(body))
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
        except http.client.IncompleteRead as e:
            raise SiteError(f"{path}: the answer stopped after {len(e.partial)} of "
                            f"{len(e.partial) + (e.expected or 0)} bytes") from None
        except (OSError, ValueError, http.client.HTTPException) as e:  # a reset, a bad status line
            raise SiteError(f"{path}: {_reason(e)}") from None

    def _page(self, path: str, form: Optional[dict] = None) -> str:
        try:
            _, body, charset = self._fetch(path, form)
        except urllib.error.HTTPError as e:
            detail = _error_words(e)
            kind = _NotLoggedIn if e.code in _SESSION_STATUSES else SiteError
            raise kind(f"{path}: HTTP {e.code} {e.reason}{detail}") from None
        page = _decode(body, charset)
        if pages.is_cut(page):
            raise SiteError(f"{path}: the page stops before its end ({len(body)} bytes)")
        return page

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
                page = self._page(LOGIN_PATH, {"login": self.user, "password": self._password})
                answer, form_again = pages.words(page), pages.is_login_page(page)
            except _NotLoggedIn as e:
                answer, form_again = str(e), True
            if not self.logged_in() or form_again:  # a cookie with the form again is no login
                self.cookies.clear()
                raise LoginError(f"login failed for {self.user!r}: the site answered "
                                 f"{answer or '(an empty page)'!r} and no session "
                                 f"({SESSION_COOKIE} cookie); check the name and password")
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
        if page is None or pages.is_login_page(page):
            if page is not None:
                log.info("%s: the login page: the session has ended", path)
            self.login(session)
            page = self._page(path, form)
            if pages.is_login_page(page):
                raise LoginError(f"login failed for {self.user!r}: {path} is still the login "
                                 "page after logging in")
        return page

    # --- games ----------------------------------------------------------------
    def game_list(self) -> GameList:
        page = self._logged_page(GAME_LIST_PATH)
        try:
            games = pages.game_list(page)
        except pages.PageError as e:
            raise SiteError(f"{GAME_LIST_PATH}: {e}") from None
        return GameList(games, pages.NEW_INVITATIONS in page.lower())


    def download(self, gid: int, game: Optional[str] = None) -> Download:
        """The game's record, told apart by content (`game`: the game the list names, whose
        form is tried first); SiteError when the site fails."""
        session = self.session()
        try:
            return self._download(gid, game)
        except _LoginPageAnswer as e:  # the session ended: once more after logging in
            log.info("%s: the session has ended", e)
            self.login(session)
        try:
            return self._download(gid, game)
        except _LoginPageAnswer as e:
            return Download(gid, None, None, f"{e}: the login page instead of a record")

    def _download(self, gid: int, first: Optional[str]) -> Download:
        tried: list[str] = []     # forms that are not this game's record
        failed: list[str] = []    # forms the site failed to answer
        order = sorted(RECORD_FORMS, key=lambda name: name != first)
        for path in (RECORD_FORMS[name].format(gid=gid) for name in order):
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
            if pages.is_login_page(text):
                raise _LoginPageAnswer(path)
            if text.lstrip().startswith("(") and not text.rstrip().endswith(")"):
                raise SiteError(f"{path}: the record stops before its end")
            try:
                source, read = records.identify(text)  # detected once, read by `read`
            except records.RecordError as e:
                tried.append(f"{path}: {e}")
                continue
            return _read_download(gid, records.format_game(source), text, read, path)
        if failed:  # the record may be behind the form that failed: try again later
            raise SiteError("; ".join(failed + tried))
        games = " or ".join(spec(name).title for name in played_games())
        return Download(gid, None, None, f"not a {games} record (" + "; ".join(tried) + ")")

    # --- posts ----------------------------------------------------------------
    def post_move(self, gid: int, move: str) -> tuple[str, bool]:
        """Send a move (site notation); the words of the site's answer, and whether they say
        the move was not taken.  PostRejected when the site answers with an error status or
        the login page; PostUnknown when it may have taken the move without saying so."""
        form = {"sendgame": str(gid), "sendmove": move}
        for attempt in (1, 2):
            session = self.session()
            try:
                _, body, charset = self._request(MOVE_PATH, form)
            except urllib.error.HTTPError as e:
                detail = _error_words(e)
                if e.code in _SESSION_STATUSES and attempt == 1:  # the move was not taken
                    log.info("%s: HTTP %d: the session has ended", MOVE_PATH, e.code)
                    self.login(session)
                    continue
                raise PostRejected(f"HTTP {e.code} {e.reason}{detail}") from None
            except urllib.error.URLError as e:
                if isinstance(e.reason, (ConnectionRefusedError, socket.gaierror)):
                    raise PostRejected(f"not sent: {_reason(e.reason)}") from None
                raise PostUnknown(_reason(e.reason), isinstance(e.reason, TimeoutError)) from None
            except TimeoutError:  # socket.timeout is TimeoutError
                raise PostUnknown(f"no answer within {self.timeout:g} s", True) from None
            except http.client.IncompleteRead as e:
                raise PostUnknown(f"the answer stopped after {len(e.partial)} bytes") from None
            except (OSError, ValueError, http.client.HTTPException) as e:
                raise PostUnknown(_reason(e)) from None
            page = _decode(body, charset)
            if pages.is_login_page(page):
                if attempt == 1:  # not logged in: the move was not taken
                    log.info("%s: the login page: the session has ended", MOVE_PATH)
                    self.login(session)
                    continue
                raise PostRejected("still the login page after logging in")
            if pages.is_cut(page):
                raise PostUnknown(f"the answer stops before its end ({len(body)} bytes)")
            return pages.answer(page)
        raise PostRejected("still the login page after logging in")

    # --- invitations and messages ---------------------------------------------
    def invitation_page(self) -> str:
        return self._logged_page(INVITATIONS_PATH)

    def answer_invitation(self, invid: str, accept: bool) -> tuple[str, bool]:
        """GET the invitation's accept or refuse link; the words of the answer, and whether
        they say it was not taken."""
        query = urllib.parse.urlencode({"accept" if accept else "refuse": "", "invid": invid})
        page = self._logged_page(f"{ANSWER_PATH}?{query}")
        return pages.answer(page)

    def send_message(self, to: str, title: str, text: str) -> None:
        """A LittleGolem message to the player `to` (a user id)."""
        self._logged_page(MESSAGE_PATH, {"plto": to, "messagetitle": title, "message": text})


def _read_download(gid: int, game: Optional[str], text: str,
                   read: Callable[[], records.GameRecord], path: str) -> Download:
    """The Download of a record text (`read` reads it); SiteError when the text was cut short
    in transit."""
    try:
        record = read()
    except records.RecordError as e:
        if _cut_record(text):
            raise SiteError(f"{path}: the record stops before its end") from None
        return Download(gid, game, None, f"an unreadable {game} record: {e}")
    return Download(gid, game, record)


def _cut_record(text: str) -> bool:
    """A text record that does not read, but would without its last word: what a body cut
    short looks like."""
    stripped = text.rstrip()
    head = stripped.rsplit(None, 1)[0] if len(stripped.split()) > 1 else ""
    try:
        records.read_record(head)
    except records.RecordError:
        return False
    return True


def _error_words(error: urllib.error.HTTPError) -> str:
    try:
        body = error.read(2000) if error.fp is not None else b""
    except (OSError, http.client.HTTPException):
        body = b""
    finally:
        error.close()
    text = pages.words(body.decode("utf-8", errors="replace"))
    return f": {text}" if text else ""


def _decode(body: bytes, charset: str) -> str:
    try:
        return body.decode(charset, errors="replace")
    except LookupError:  # a charset Python does not know
        return body.decode("utf-8", errors="replace")


def _reason(error: object) -> str:
    text = str(error) or type(error).__name__
    return text.splitlines()[0][:200] if text else type(error).__name__
