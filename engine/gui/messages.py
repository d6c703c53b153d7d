"""What the page may ask, checked before anything reaches the engine.

Every request is a JSON object with a "type"; each field is checked against a closed set of values
or a strict pattern, so no text from the page can become a second command line, a comment or an
option the GUI does not use. Moves are further checked by the session against the engine's own
`legal_moves` list.
"""
from __future__ import annotations

import json
import re

from ..records import MAX_RECORD_BYTES  # the engine's own limit on a record file (protocol.md 5.5)

MAX_MESSAGE_BYTES = MAX_RECORD_BYTES + (64 << 10)  # a record upload is the largest message
# The WebSocket frame limit of the server: above any message we accept, so that a too large
# upload gets our own error and the session (its game) goes on; a frame above even this closes
# the socket (a page that skips its own size check).
WS_MAX_BYTES = 8 * MAX_RECORD_BYTES
MAX_MOVE_CHARS = 64
MAX_POSITION_CHARS = 4096
MAX_SEED = 2 ** 64 - 1
TIME_MS = (10, 24 * 3600 * 1000)
MULTIPV = (1, 10)
REVIEW_DEPTH = (1, 8)              # modest: a review cancels between two positions' searches
REVIEW_MOVETIME_MS = (10, 5000)
MAX_PLY = 10_000
MAX_LEVEL = 10_000                 # a bound on the number only: the session checks the
                                   # engine's own range (its `option` list) and names it
MAX_TURN_ACTIONS = 4
MAX_PENDING_REQUESTS = 64          # a session's queue: beyond it a request is refused, not kept

GAME_NAME = re.compile(r"[a-z]{1,16}")
MOVE_TEXT = re.compile(r"[A-Za-z0-9+:x -]{1,%d}" % MAX_MOVE_CHARS)
ACTION_TEXT = re.compile(r"[A-Za-z0-9+:x-]{1,%d}" % MAX_MOVE_CHARS)   # one word of a move
POSITION_TEXT = re.compile(r"[a-z]{1,16} [wb] [a-z]{1,16} [A-Za-z,/-]{1,%d}" % MAX_POSITION_CHARS)
SIDES = ("w", "b")
PLAYERS = ("human", "engine")
TIME_MODES = ("move", "game")


class BadRequest(Exception):
    """A message the page should never send: the reply says why, nothing is done."""


def _int(value, low: int, high: int, what: str) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
        raise BadRequest(f"{what} must be a whole number from {low} to {high}")
    return value


def _choice(value, choices: tuple, what: str) -> str:
    if value not in choices:
        raise BadRequest(f"{what} must be one of {', '.join(map(str, choices))}")
    return value


def _valid_unicode(text: str) -> bool:
    """JSON's \\u escapes can make a lone surrogate, which no UTF-8 pipe or file can carry."""
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        return False
    return True


def _text(value, pattern: re.Pattern, what: str) -> str:
    if not isinstance(value, str) or not pattern.fullmatch(value):
        raise BadRequest(f"unacceptable {what}")
    return value


def parse_request(raw: str) -> dict:
    """The checked request of one WebSocket text message."""
    if len(raw.encode("utf-8", "surrogatepass")) > MAX_MESSAGE_BYTES:
        raise BadRequest(f"message too large (at most {MAX_MESSAGE_BYTES} bytes; a record "
                         f"at most {MAX_RECORD_BYTES})")
    try:
        data = json.loads(raw)
    except ValueError:
        raise BadRequest("not JSON") from None
    except RecursionError:  # arrays or objects nested thousands deep
        raise BadRequest("not JSON: nested too deep") from None
    if not isinstance(data, dict) or not isinstance(data.get("type"), str):
        raise BadRequest("a request is a JSON object with a type")
    kind = data["type"]
    checker = CHECKERS.get(kind)
    if checker is None:
        raise BadRequest(f"unknown request {kind[:40]!r}")
    request = checker(data)
    request["type"] = kind
    return request


def _newgame(data: dict) -> dict:
    """`newgame <game> [fixed | random <seed>]`: the engine says which games take an opening."""
    game = _text(data.get("game"), GAME_NAME, "game name")
    opening = data.get("opening")
    if opening == "random":  # without a seed the session draws a new one
        seed = data.get("seed")
        return {"game": game, "opening": "random",
                "seed": None if seed is None else _int(seed, 0, MAX_SEED, "seed")}
    return {"game": game, "opening": _choice(opening, (None, "fixed"), "opening")}


def _play(data: dict) -> dict:
    return {"move": _text(data.get("move"), MOVE_TEXT, "move")}


def _players(data: dict) -> dict:
    return {side: _choice(data.get(side), PLAYERS, f"player of {side}") for side in SIDES}


def _time(data: dict) -> dict:
    return {"mode": _choice(data.get("mode"), TIME_MODES, "time mode"),
            "ms": _int(data.get("ms"), *TIME_MS, "time in ms")}


def _setposition(data: dict) -> dict:
    return {"position": _text(data.get("position"), POSITION_TEXT, "position string")}


def _loadrecord(data: dict) -> dict:
    content = data.get("content")
    if not isinstance(content, str) or not content.strip():
        raise BadRequest("a record is a non-empty text")
    if not _valid_unicode(content):
        raise BadRequest("a record must be text (UTF-8): this one has a lone surrogate")
    if len(content.encode("utf-8")) > MAX_RECORD_BYTES:
        raise BadRequest(f"the record is too large: at most {MAX_RECORD_BYTES} bytes "
                         f"({MAX_RECORD_BYTES >> 20} MiB)")
    return {"content": content}


def _analysis(data: dict) -> dict:
    on = data.get("on")
    if not isinstance(on, bool):
        raise BadRequest("analysis on must be true or false")
    return {"on": on, "multipv": _int(data.get("multipv", 1), *MULTIPV, "multipv")}


def _review(data: dict) -> dict:
    """A review at a fixed depth or a fixed time per position, never both."""
    if ("depth" in data) == ("movetime" in data):
        raise BadRequest("a review takes either depth or movetime")
    if "depth" in data:
        return {"depth": _int(data["depth"], *REVIEW_DEPTH, "review depth")}
    return {"movetime": _int(data["movetime"], *REVIEW_MOVETIME_MS, "review movetime in ms")}


def _level(data: dict) -> dict:
    level = data.get("level")
    if isinstance(level, bool) or not isinstance(level, int) or not 0 <= level <= MAX_LEVEL:
        raise BadRequest("level must be a whole number (the engine's levels are in its options)")
    return {"level": level}


def _preview(data: dict) -> dict:
    """The first actions of a turn being built: the page draws the position after them."""
    actions = data.get("actions")
    if not isinstance(actions, list) or not 1 <= len(actions) < MAX_TURN_ACTIONS:
        raise BadRequest(f"actions must be a list of 1 to {MAX_TURN_ACTIONS - 1} actions")
    return {"actions": [_text(action, ACTION_TEXT, "action") for action in actions]}


def _attention(data: dict) -> dict:
    """Whether someone is looking: the page says so when its tab is hidden or idle for a while,
    and live analysis waits meanwhile."""
    present = data.get("present")
    if not isinstance(present, bool):
        raise BadRequest("attention present must be true or false")
    return {"present": present}


def _view(data: dict) -> dict:
    """The position after `ply` moves of the game, shown and analysed; the game is kept."""
    return {"ply": _int(data.get("ply"), 0, MAX_PLY, "ply")}


def _nothing(data: dict) -> dict:
    return {}


CHECKERS = {
    "newgame": _newgame, "play": _play, "undo": _nothing, "go": _nothing, "stop": _nothing,
    "players": _players, "time": _time, "setposition": _setposition, "loadrecord": _loadrecord,
    "record": _nothing, "analysis": _analysis, "level": _level, "attention": _attention,
    "review": _review, "review_cancel": _nothing, "view": _view, "cut": _nothing,
    "hint": _nothing, "preview": _preview,
}
