"""gipf-littlegolem's settings: the TOML keys, their defaults and checks, the command line,
and the password.  `--help` lists every key with its default; `--print-config` prints them
as a TOML file to start from."""
from __future__ import annotations

import argparse
import json
import os
import tomllib
import urllib.parse
from dataclasses import dataclass, field, fields
from pathlib import Path
from typing import Optional

from engine.bounded_read import InputError, read_text
from engine.client import DEFAULT_ENGINE

from .notation import played_games

PASSWORD_VARIABLE = "LITTLEGOLEM_PASSWORD"
PASSWORD_LIMIT = 4096
CONFIG_LIMIT = 1 << 20
GAMES = tuple(played_games())  # the games LittleGolem plays (notation.SITE_MOVES)
INVITATION_MODES = ("answer", "ignore")


class UsageError(Exception):
    """A bad command line or configuration: exit status 2."""


@dataclass
class Settings:
    """Everything the runner needs; the TOML keys are these names (KEYS says what each is)."""

    user: str = ""
    base_url: str = "https://www.littlegolem.net"
    password_file: Optional[str] = None
    games: list = field(default_factory=lambda: list(GAMES))
    movetime: int = 30_000
    poll_interval: float = 60.0
    workers: int = 1
    state_file: Optional[str] = None
    engine: str = DEFAULT_ENGINE
    engine_setup: list = field(default_factory=list)
    http_timeout: float = 30.0
    retry_delay: float = 10.0
    max_backoff: float = 900.0
    log_level: str = "info"
    allow_python_player: bool = False
    invitations: str = "answer"
    accept_from: list = field(default_factory=list)
    refuse_from: list = field(default_factory=list)
    max_games: int = 0
    owner: str = ""
    max_messages: int = 10
    max_refusals: int = 3
    resign: bool = False
    resign_score: int = -2000
    resign_moves: int = 3


KEYS = {
    "user": "the account's name (required)",
    "base_url": "the site",
    "password_file": "a file holding the password, mode 600",
    "games": "the games played and accepted in invitations",
    "movetime": "ms of thinking per move",
    "poll_interval": "s between passes",
    "workers": "games thought about at once, one engine process each",
    "state_file": "the file of posts, answers and games in progress; locked while the bot "
                  "runs (a second bot on it exits, or waits with --wait); a symlink is "
                  "followed and its target written",
    "engine": "the command starting the engine: this install's engine unless set",
    "engine_setup": "engine commands sent once to each engine at its start",
    "http_timeout": "s a request may take",
    "retry_delay": "s before the first retry after a failed pass (doubling after each)",
    "max_backoff": "s, the longest wait after failed passes in a row",
    "log_level": "debug, info, warning or error",
    "allow_python_player": "play even when the engine has no compiled core (far weaker)",
    "invitations": "answer: accept or refuse each invitation once (ids as numbers), taken when "
                   "it leaves the invitation page; ignore: leave them to the owner",
    "accept_from": "if not empty, accept invitations from these players only",
    "refuse_from": "refuse invitations from these players",
    "max_games": "refuse invitations while this many games are in progress: the game list's "
                 "games plus those accepted and not listed yet (0: no limit)",
    "owner": "the numeric LittleGolem user id (the plid= of the owner's profile address) told "
             "by message of answers, ends and stops",
    "max_messages": "messages to the owner a pass; the rest go as one summary message",
    "max_refusals": "refused posts of one move before the bot stops posting to the game",
    "resign": "resign lost games",
    "resign_score": "resign when the engine's score stays below this ...",
    "resign_moves": "... for this many of the bot's own moves in a row the record shows (a "
                    "retried post is one move; a proven loss resigns at once)",
}

_TYPES = {f.name: (list if f.name in ("games", "engine_setup", "accept_from", "refuse_from")
                   else {"int": int, "float": float, "bool": bool}.get(str(f.type), str))
          for f in fields(Settings)}
_TYPE_NAMES = {str: "a string", int: "an integer", float: "a number", list: "a list",
               bool: "true or false"}


_UNSET = {"password_file": "the password from $" + PASSWORD_VARIABLE,
          "state_file": "$XDG_STATE_HOME/gipf-littlegolem/USER.json"}


def _toml(value) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, float) and value.is_integer():
        return str(int(value))
    return json.dumps(value)


def defaults_toml() -> str:
    """Every key with its default, as a TOML file (keys without a default commented out)."""
    lines = ["# gipf-littlegolem configuration: every key with its default"]
    for item in fields(Settings):
        value = getattr(Settings(), item.name)
        line = f"{item.name} = {_toml(value)}" if value is not None else f'# {item.name} = ""'
        if item.name == "engine":  # left to the install the bot runs from, not pinned here
            line = f"# {line}"
        unset = f" (unset: {_UNSET[item.name]})" if value is None else ""
        lines.append(f"{line:<44} # {KEYS[item.name]}{unset}")
    return "\n".join(lines) + "\n"


def keys_help() -> str:
    rows = [f"  {item.name:<20} {KEYS[item.name]} (default {_default_text(item.name)})"
            for item in fields(Settings)]
    return ("configuration keys (TOML, --config; `gipf-littlegolem --print-config` prints "
            "them as a file):\n" + "\n".join(rows))


def _default_text(name: str) -> str:
    value = getattr(Settings(), name)
    return _UNSET[name] if value is None else _toml(value)


def read_config(path: str) -> dict:
    try:
        data = tomllib.loads(read_text(path, CONFIG_LIMIT))
    except InputError as e:
        raise UsageError(str(e)) from None
    except tomllib.TOMLDecodeError as e:
        raise UsageError(f"{path}: not TOML: {e}") from None
    if "password" in data:
        raise UsageError(f"{path}: a config file holds no password: use the environment "
                         f"variable {PASSWORD_VARIABLE} or password_file")
    for key, value in data.items():
        kind = _TYPES.get(key)
        if kind is None:
            raise UsageError(f"{path}: unknown key {key!r} (known: {', '.join(_TYPES)})")
        if kind is float and isinstance(value, int) and not isinstance(value, bool):
            value = data[key] = float(value)
        if not isinstance(value, kind) or (kind is not bool and isinstance(value, bool)):
            raise UsageError(f"{path}: {key} must be {_TYPE_NAMES[kind]}, not {value!r}")
    return data


def check_settings(settings: Settings) -> None:
    if not settings.user:
        raise UsageError("no account: give --user or user in the config")
    url = urllib.parse.urlsplit(settings.base_url)
    if url.scheme not in ("http", "https") or not url.hostname:
        raise UsageError(f"the base URL must be http(s)://host[:port], not {settings.base_url!r}")
    games = [str(g).lower() for g in settings.games]
    if not games or any(g not in GAMES for g in games):
        raise UsageError(f"games must list some of {', '.join(GAMES)}, not {settings.games!r}")
    settings.games = games
    if not all(isinstance(line, str) and line.isprintable() for line in settings.engine_setup):
        raise UsageError("engine_setup must be a list of engine commands, one line each")
    for name in ("accept_from", "refuse_from"):
        if not all(isinstance(n, str) and n.strip() for n in getattr(settings, name)):
            raise UsageError(f"{name} must be a list of player names")
    for name in ("movetime", "workers", "max_refusals", "resign_moves", "max_messages"):
        if getattr(settings, name) <= 0:
            raise UsageError(f"{name} must be positive")
    if settings.max_games < 0:
        raise UsageError("max_games must be 0 (no limit) or positive")
    for name in ("poll_interval", "http_timeout", "retry_delay", "max_backoff"):
        if not getattr(settings, name) > 0:
            raise UsageError(f"{name} must be positive")
    if settings.log_level.upper() not in ("DEBUG", "INFO", "WARNING", "ERROR"):
        raise UsageError(f"log_level must be debug, info, warning or error, "
                         f"not {settings.log_level!r}")
    if settings.invitations not in INVITATION_MODES:
        raise UsageError(f"invitations must be answer or ignore, not {settings.invitations!r}")


def read_password(settings: Settings) -> str:
    """From the password file (readable by its owner only) or the environment."""
    if settings.password_file:
        path = os.path.expanduser(settings.password_file)
        try:
            mode = os.stat(path).st_mode
        except OSError as e:
            raise InputError(f"cannot read {path}: {e.strerror or e}") from None
        if mode & 0o077:
            raise InputError(f"the password file {path} can be read or changed by others "
                             f"(mode {mode & 0o777:03o}): chmod 600 it")
        password = read_text(path, PASSWORD_LIMIT).rstrip("\r\n")
        if not password:
            raise InputError(f"the password file {path} is empty")
        return password
    password = os.environ.get(PASSWORD_VARIABLE, "")
    if not password:
        raise UsageError(f"no password: set {PASSWORD_VARIABLE} or give --password-file")
    return password


def default_state_file(user: str) -> Path:
    base = os.environ.get("XDG_STATE_HOME") or os.path.expanduser("~/.local/state")
    safe = "".join(c if c.isalnum() or c in "-_." else "_" for c in user)
    return Path(base) / "gipf-littlegolem" / f"{safe}.json"


# --- the command line ---------------------------------------------------------------
class _Parser(argparse.ArgumentParser):
    def error(self, message: str):
        raise UsageError(message)


def parse_args(argv, description: str) -> argparse.Namespace:
    parser = _Parser(prog="gipf-littlegolem", description=description, allow_abbrev=False,
                     epilog=keys_help(), formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--config", metavar="FILE", help="TOML settings (flags override them)")
    parser.add_argument("--print-config", action="store_true",
                        help="print every configuration key with its default, as TOML, and exit")
    parser.add_argument("--base-url", metavar="URL", help="the site (https://www.littlegolem.net)")
    parser.add_argument("--user", metavar="NAME", help="the account's name")
    parser.add_argument("--password-file", metavar="FILE",
                        help=f"file with the password, mode 600 (else ${PASSWORD_VARIABLE})")
    parser.add_argument("--movetime", type=int, metavar="MS",
                        help=f"thinking time per move (default {Settings.movetime})")
    parser.add_argument("--once", action="store_true", help="one pass, then exit (for cron)")
    parser.add_argument("--dry-run", action="store_true",
                        help="print 'GID MOVE' for every waiting game and log the invitation "
                        "answers it would give; answer, post and send nothing (one pass)")
    parser.add_argument("--state", metavar="FILE", help="the state file")
    parser.add_argument("--wait", action="store_true",
                        help="wait while another gipf-littlegolem uses the state file (else "
                        "exit at once, status 1, naming its pid)")
    parser.add_argument("--engine", metavar="CMD",
                        help="command starting the engine (default: this install's engine)")
    parser.add_argument("--allow-python-player", action="store_true",
                        help="play even when the engine has no compiled core (far weaker)")
    args, unknown = parser.parse_known_args(argv)
    if unknown:  # named without their values: a mistyped option may carry a secret
        raise UsageError("unknown options " + " ".join(a for a in unknown if a.startswith("-"))
                         + f" (the password comes from ${PASSWORD_VARIABLE} or --password-file)")
    return args


def settings_from(args: argparse.Namespace) -> Settings:
    values = read_config(args.config) if args.config else {}
    for flag, key in (("base_url", "base_url"), ("user", "user"),
                      ("password_file", "password_file"), ("movetime", "movetime"),
                      ("state", "state_file"), ("engine", "engine")):
        value = getattr(args, flag)
        if value is not None:
            values[key] = value
    if args.allow_python_player:
        values["allow_python_player"] = True
    known = {f.name for f in fields(Settings)}
    settings = Settings(**{k: v for k, v in values.items() if k in known})
    check_settings(settings)
    return settings
