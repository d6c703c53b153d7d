"""Reading LittleGolem's pages: the game list, the invitations, the login form, and the words
of an answer for a log line.  Only the standard library's html.parser; nothing here talks to
the site, and every function takes any text (a hostile or cut page gives a PageError or an
empty list, never another exception).
"""
from __future__ import annotations

import re
import urllib.parse
from dataclasses import dataclass, field
from html.parser import HTMLParser
from typing import Optional

from .notation import site_game

OPPONENTS_TURN = "games where it is your opponent's turn"
OUR_TURN = "games where it is your turn"
INVITATIONS = "invitations from other players"
DECISION = "your decision"
NEW_INVITATIONS = "new invitations"

_PASSWORD_INPUT = re.compile(r"<input\b[^>]*\b(?:type|name)\s*=\s*[\"']?password\b", re.I)
_GID = re.compile(r"game\.jsp\?(?:[^\"'>\s]*&)?gid=(\d{1,12})(?!\d)")
# words with which a page says that a move or an answer was not taken
_REFUSAL = re.compile(r"\b(?:error|illegal|invalid|reject\w*|refused|wrong|cannot|can't|failed|"
                      r"not (?:your turn|allowed|accepted|taken|possible|valid))\b", re.I)
_BREAKS = {"br", "p", "div", "tr", "td", "th", "li", "h1", "h2", "h3", "h4", "h5", "h6",
           "table", "title", "option"}


class PageError(Exception):
    """A page that is not what was asked for; the message is one line."""


@dataclass
class Cell:
    text: str = ""
    links: list[str] = field(default_factory=list)
    link_texts: list[str] = field(default_factory=list)


@dataclass
class Row:
    at: int                                  # offset of the row in the page's text
    cells: list[Cell] = field(default_factory=list)


@dataclass
class Table:
    at: int
    rows: list[Row] = field(default_factory=list)


@dataclass
class Link:
    href: str
    at: int
    text: str = ""
    row: Optional[Row] = None


class _Reader(HTMLParser):
    """The page's visible text (one space between blocks), its tables and its links."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.parts: list[str] = []
        self.size = 0
        self.tables: list[Table] = []
        self.links: list[Link] = []
        self._frames: list[list] = []        # open tables: [table, row, cell]
        self._link: Optional[Link] = None

    def _add(self, text: str) -> None:
        self.parts.append(text)
        self.size += len(text)
        for _, _, cell in self._frames:
            if cell is not None:
                cell.text += text
        if self._link is not None:
            self._link.text += text

    def handle_starttag(self, tag: str, attrs) -> None:
        if tag in _BREAKS:
            self._add(" ")
        if tag == "table":
            table = Table(self.size)
            self.tables.append(table)
            self._frames.append([table, None, None])
        elif tag == "tr" and self._frames:
            frame = self._frames[-1]
            frame[1], frame[2] = Row(self.size), None
            frame[0].rows.append(frame[1])
        elif tag in ("td", "th") and self._frames and self._frames[-1][1] is not None:
            frame = self._frames[-1]
            frame[2] = Cell()
            frame[1].cells.append(frame[2])
        elif tag == "a":
            href = dict(attrs).get("href") or ""
            row = self._frames[-1][1] if self._frames else None
            self._link = Link(href, self.size, "", row)
            self.links.append(self._link)
            if self._frames and self._frames[-1][2] is not None:
                self._frames[-1][2].links.append(href)

    def handle_endtag(self, tag: str) -> None:
        if tag == "a" and self._link is not None:
            cell = self._frames[-1][2] if self._frames else None
            if cell is not None:
                cell.link_texts.append(" ".join(self._link.text.split()))
            self._link = None
        elif tag == "table" and self._frames:
            self._frames.pop()
        elif tag in ("td", "th") and self._frames:
            self._frames[-1][2] = None
        if tag in _BREAKS:
            self._add(" ")

    def handle_data(self, data: str) -> None:
        self._add(data)


def _read(page: str) -> tuple[_Reader, str]:
    reader = _Reader()
    try:
        reader.feed(page)
        reader.close()
    except (AssertionError, ValueError):  # html.parser's complaints about a broken page
        pass
    text = "".join(reader.parts).replace("\u2019", "'").replace("\u00a0", " ")
    return reader, text.lower()


def answer(page: str, limit: int = 160) -> tuple[str, bool]:
    """The page's visible text on one line, cut to `limit` characters for a log line (when the
    page says something was refused, the words around that), and whether it says so: one
    parse for both."""
    reader, _ = _read(page)
    text = " ".join("".join(reader.parts).split())
    match = _REFUSAL.search(text)
    start = 0 if match is None else max(0, match.start() - limit // 3)
    return text[start:start + limit], match is not None


def words(page: str, limit: int = 160) -> str:
    """answer()'s text alone."""
    return answer(page, limit)[0]


def is_login_page(page: str) -> bool:
    """The login form (the site's answer to a request without a valid session)."""
    return "<form" in page.lower() and _PASSWORD_INPUT.search(page) is not None


def is_cut(page: str) -> bool:
    """An HTML page that stops before its end (a body cut short with a Content-Length to
    match): `<html` without `</html>`."""
    lower = page.lower()
    return "<html" in lower and "</html>" not in lower


def same_player(name: str, other: str) -> bool:
    """Whether two names are one player's, as records and pages write them: the same words,
    or the same first word (records add to the name: 'Xander (xandern .BSW)')."""
    a, b = name.lower().split(), other.lower().split()
    return bool(a) and bool(b) and (a == b or a[0] == b[0])


# --- the game list -------------------------------------------------------------
@dataclass
class ListedGame:
    """One game of the game list: waiting for our move or for the opponent's."""

    gid: int
    our_turn: bool
    game: Optional[str] = None       # the played game its row names ('dvonn'), if any
    players: list[str] = field(default_factory=list)  # the players its row links to


def game_list(page: str) -> list[ListedGame]:
    """Every game of the list in page order, once each.  The games waiting for our move are
    the game links before the heading of the games where it is the opponent's turn.
    PageError for a page that is not a game list."""
    reader, lower = _read(page)
    end = lower.find(OPPONENTS_TURN)
    if end < 0:
        if lower.find(OUR_TURN) < 0:
            raise PageError("the game list page has neither games where it is our turn nor "
                            "games where it is the opponent's")
        end = reader.size
    games: dict[int, ListedGame] = {}
    for link in reader.links:
        match = _GID.search(link.href)
        if match is None:
            continue
        gid = int(match.group(1))
        if gid not in games:
            games[gid] = _listed(gid, link.at < end, link.row)
    return list(games.values())


def _listed(gid: int, our_turn: bool, row: Optional[Row]) -> ListedGame:
    listed = ListedGame(gid, our_turn)
    for cell in row.cells if row is not None else []:
        listed.game = listed.game or site_game(cell.text)
        for href, text in zip(cell.links, cell.link_texts):
            if ("plid=" in href or "player" in href.lower()) and text:
                listed.players.append(text)
    return listed


# --- the invitations -----------------------------------------------------------
@dataclass
class Invitation:
    invid: str
    opponent: str
    game: str                        # as the site writes it: 'Dvonn', 'Hex 13x13'


def invitations(page: str) -> tuple[list[Invitation], list[str]]:
    """The invitations to us: the rows after the header row (its last cell 'Your decision') of
    the first such table after the text 'Invitations from other players'; and a line for
    each row that is not an invitation.  PageError for a page without that table."""
    reader, lower = _read(page)
    start = lower.find(INVITATIONS)
    if start < 0:
        raise PageError("the invitation page does not say 'Invitations from other players'")
    for table in reader.tables:
        if table.at < start:
            continue
        header = next((n for n, row in enumerate(table.rows) if row.cells and
                       " ".join(row.cells[-1].text.split()).lower().startswith(DECISION)), None)
        if header is not None:
            return _invitation_rows(table.rows[header + 1:])
    raise PageError("the invitation page has no table with a 'Your decision' column after "
                    "'Invitations from other players'")


def _invitation_rows(rows: list[Row]) -> tuple[list[Invitation], list[str]]:
    found: list[Invitation] = []
    problems: list[str] = []
    for row in rows:
        texts = [" ".join(cell.text.split()) for cell in row.cells]
        if not any(texts) and not any(cell.links for cell in row.cells):
            continue  # a spacer row
        answers = {_answer_link(href) for href in row.cells[-1].links} if row.cells else set()
        ids = {invid for kind, invid in answers if kind is not None}
        kinds = {kind for kind, _ in answers}
        if len(row.cells) < 3 or len(ids) != 1 or not {"accept", "refuse"} <= kinds \
                or not texts[0] or not texts[1]:
            problems.append("not an invitation row: " + " | ".join(texts)[:160])
            continue
        found.append(Invitation(ids.pop(), texts[0], texts[1]))
    return found, problems


def _answer_link(href: str) -> tuple[Optional[str], str]:
    """('accept' | 'refuse', invid) for `/Invitation.action?accept=&invid=N`; (None, '')."""
    url = urllib.parse.urlsplit(href)
    if not url.path.endswith("Invitation.action"):
        return None, ""
    query = urllib.parse.parse_qs(url.query, keep_blank_values=True)
    invid = (query.get("invid") or [""])[0]
    if not (invid.isascii() and invid.isdigit() and len(invid) <= 12):
        return None, ""
    kinds = [k for k in ("accept", "refuse") if k in query]
    return (kinds[0], invid) if len(kinds) == 1 else (None, "")
