"""The protocol server: one small handler per command, one table to find them.

Framing lives in gtp.py; rules in dvonn.py / tzaar.py.  A handler returns the
reply text or raises CommandError; no handler changes the game unless the
whole command succeeds.
"""
from __future__ import annotations

import logging
import sys
from typing import Callable, Optional, TextIO

from . import ENGINE_NAME, __version__, gtp
from .dvonn import DvonnGame
from .openings import MASK64, random_opening
from .player import choose_move
from .rules import COLOUR_NAMES, BadPosition, IllegalMove, parse_colour
from .tzaar import TzaarGame

log = logging.getLogger("engine")


class CommandError(Exception):
    """A command that cannot be carried out; the message is the '?' reply."""


class Quit(Exception):
    pass


Handler = Callable[["Server", list[str]], str]
COMMANDS: dict[str, Handler] = {}


def command(name: str):
    def register(handler: Handler) -> Handler:
        COMMANDS[name] = handler
        return handler
    return register


class Server:
    def __init__(self, seed: int = 0) -> None:
        self.seed = seed
        self.setup = ("dvonn", None)  # game name, TZAAR random seed (None = fixed)
        self.game = DvonnGame()

    # --- helpers ---------------------------------------------------------
    def new_game(self, name: str, opening_seed: Optional[int]) -> None:
        if name == "dvonn":
            self.game = DvonnGame()
        else:
            self.game = TzaarGame(None if opening_seed is None else random_opening(opening_seed))
        self.setup = (name, opening_seed)

    def check_colour(self, text: str) -> None:
        try:
            colour = parse_colour(text)
        except ValueError as e:
            raise CommandError(str(e)) from None
        if colour != self.game.side:
            raise CommandError(f"it is {COLOUR_NAMES[self.game.side]}'s turn, not {COLOUR_NAMES[colour]}'s")

    def play(self, text: str) -> str:
        """Check and play one move given as text; return its canonical text."""
        game = self.game
        if game.over:
            raise CommandError("the game is over")
        try:
            move = game.play_text(text)
        except IllegalMove as e:
            raise CommandError(f"illegal move: {e}") from None
        return game.move_text(move)

    def genmove(self):
        if self.game.over:
            raise CommandError("the game is over")
        return choose_move(self.game, self.seed)

    def handle(self, cmd: gtp.Command) -> tuple[bool, str]:
        if cmd.error:
            return False, cmd.error
        handler = COMMANDS.get(cmd.name)
        if handler is None:
            return False, f"unknown command: {cmd.name}"
        try:
            return True, handler(self, cmd.args)
        except CommandError as e:
            return False, str(e)

    def serve(self, stdin, stdout: TextIO) -> None:
        for cmd in gtp.read_commands(stdin):
            try:
                ok, text = self.handle(cmd)
            except Quit:
                stdout.write(gtp.format_reply(cmd.id, True, ""))
                stdout.flush()
                return
            except Exception as e:  # a bug must not kill a long-running engine
                log.exception("internal error in %r", cmd.name)
                ok, text = False, f"internal error: {type(e).__name__}"
            stdout.write(gtp.format_reply(cmd.id, ok, text))
            stdout.flush()


def arity(args: list[str], low: int, high: Optional[int] = None, usage: str = "") -> None:
    high = low if high is None else high
    if not low <= len(args) <= high:
        raise CommandError(f"wrong number of arguments; usage: {usage}")


# --- administrative ------------------------------------------------------------

@command("protocol_version")
def cmd_protocol_version(server: Server, args: list[str]) -> str:
    arity(args, 0, usage="protocol_version")
    return "2"


@command("name")
def cmd_name(server: Server, args: list[str]) -> str:
    arity(args, 0, usage="name")
    return ENGINE_NAME


@command("version")
def cmd_version(server: Server, args: list[str]) -> str:
    arity(args, 0, usage="version")
    return f"{__version__} (python player)"


@command("known_command")
def cmd_known_command(server: Server, args: list[str]) -> str:
    arity(args, 1, usage="known_command <name>")
    return "true" if args[0] in COMMANDS else "false"


@command("list_commands")
def cmd_list_commands(server: Server, args: list[str]) -> str:
    arity(args, 0, usage="list_commands")
    return "\n".join(sorted(COMMANDS))


@command("quit")
def cmd_quit(server: Server, args: list[str]) -> str:
    raise Quit


# --- game setup ------------------------------------------------------------------

@command("newgame")
def cmd_newgame(server: Server, args: list[str]) -> str:
    usage = "newgame dvonn | newgame tzaar [fixed | random <seed>]"
    if not args:
        raise CommandError(f"which game? usage: {usage}")
    name = args[0].lower()
    if name == "dvonn":
        arity(args, 1, usage=usage)
        server.new_game("dvonn", None)
    elif name == "tzaar":
        options = [a.lower() for a in args[1:]]
        if options in ([], ["fixed"]):
            server.new_game("tzaar", None)
        elif len(options) == 2 and options[0] == "random":
            server.new_game("tzaar", parse_seed(options[1]))
        else:
            raise CommandError(f"bad TZAAR opening; usage: {usage}")
    else:
        raise CommandError(f"unknown game {args[0]!r}; usage: {usage}")
    return ""


def parse_seed(text: str) -> int:
    if not text.isdigit() or int(text) > MASK64:
        raise CommandError(f"bad seed {text!r}: a whole number from 0 to {MASK64}")
    return int(text)


@command("clear_board")
def cmd_clear_board(server: Server, args: list[str]) -> str:
    arity(args, 0, usage="clear_board")
    server.new_game(*server.setup)
    return ""


@command("setposition")
def cmd_setposition(server: Server, args: list[str]) -> str:
    if not args:
        raise CommandError("usage: setposition <position string as printed by position>")
    text = " ".join(args)
    cls = {"dvonn": DvonnGame, "tzaar": TzaarGame}.get(args[0].lower())
    if cls is None:
        raise CommandError("a position string starts with dvonn or tzaar")
    try:
        server.game = cls.from_position(text)
    except BadPosition as e:
        raise CommandError(f"bad position: {e}") from None
    server.setup = (cls.name, None) if cls is DvonnGame else server.setup
    return ""


@command("position")
def cmd_position(server: Server, args: list[str]) -> str:
    arity(args, 0, usage="position")
    return server.game.position()


# --- moves -------------------------------------------------------------------------

@command("play")
def cmd_play(server: Server, args: list[str]) -> str:
    if len(args) < 2:
        raise CommandError("usage: play <colour> <move>")
    server.check_colour(args[0])
    return server.play(" ".join(args[1:]))


@command("move")
def cmd_move(server: Server, args: list[str]) -> str:
    if not args:
        raise CommandError("usage: move <move>")
    return server.play(" ".join(args))


@command("place")
def cmd_place(server: Server, args: list[str]) -> str:
    arity(args, 1, usage="place <point>")
    game = server.game
    if not isinstance(game, DvonnGame) or game.phase != "placement":
        raise CommandError("place is for DVONN's placement phase")
    return server.play(args[0])


@command("replay")
def cmd_replay(server: Server, args: list[str]) -> str:
    """Play a whole move list at once, or nothing at all if any move fails."""
    game = server.game
    tokens = " ".join(args).replace(",", " ").replace(";", " ").split()
    start = game.ply
    played = 0
    try:
        for text in group_turns(game, tokens):
            if game.over:
                raise CommandError(f"move {played + 1} ({text}): the game is over")
            try:
                game.play_text(text)
            except IllegalMove as e:
                raise CommandError(f"move {played + 1} ({text}): illegal move: {e}") from None
            played += 1
    except CommandError:
        while game.ply > start:
            game.pop()
        raise
    return str(played)


def group_turns(game, tokens: list[str]):
    """Yield move texts; TZAAR actions are grouped into turns as the board requires."""
    if not isinstance(game, TzaarGame):
        yield from tokens
        return
    i = 0
    while i < len(tokens):
        if game.opening_turn or i + 1 == len(tokens):
            yield tokens[i]
            i += 1
            continue
        # a capture that ends the game is a whole turn; otherwise two actions
        try:
            first = game._check_first(game._parse_action(tokens[i]), 2)
        except IllegalMove:
            yield f"{tokens[i]} {tokens[i + 1]}"
            i += 2
            continue
        undo = game._do_action(first)
        ends = game.over
        game._undo_action(first, undo)
        if ends:
            yield tokens[i]
            i += 1
        else:
            yield f"{tokens[i]} {tokens[i + 1]}"
            i += 2


@command("undo")
def cmd_undo(server: Server, args: list[str]) -> str:
    arity(args, 0, 1, usage="undo [n]")
    count = 1
    if args:
        if not args[0].isdigit() or int(args[0]) < 1:
            raise CommandError(f"bad count {args[0]!r}: a whole number from 1")
        count = int(args[0])
    if count > server.game.ply:
        raise CommandError(f"cannot undo {count} move{'s' if count > 1 else ''}: "
                           f"only {server.game.ply} played")
    for _ in range(count):
        server.game.pop()
    return ""


@command("genmove")
def cmd_genmove(server: Server, args: list[str]) -> str:
    arity(args, 0, 1, usage="genmove [colour]")
    if args:
        server.check_colour(args[0])
    move = server.genmove()
    server.game.check_move(move)
    server.game.push(move)
    return server.game.move_text(move)


@command("reg_genmove")
def cmd_reg_genmove(server: Server, args: list[str]) -> str:
    arity(args, 0, 1, usage="reg_genmove [colour]")
    if args:
        server.check_colour(args[0])
    return server.game.move_text(server.genmove())


@command("legal_moves")
def cmd_legal_moves(server: Server, args: list[str]) -> str:
    arity(args, 0, usage="legal_moves")
    game = server.game
    return "\n".join(game.move_text(m) for m in game.legal_moves())


# --- state ---------------------------------------------------------------------------

@command("showboard")
def cmd_showboard(server: Server, args: list[str]) -> str:
    arity(args, 0, usage="showboard")
    game = server.game
    footer = f"{COLOUR_NAMES[game.side]} to act, {game.phase}"
    if game.over:
        footer = f"game over: {game.result()} ({game.reason})"
    return f"{game.board_text()}\n{footer}"


@command("status")
def cmd_status(server: Server, args: list[str]) -> str:
    arity(args, 0, usage="status")
    game = server.game
    fields = [
        ("game", game.name),
        ("to_act", "wb"[game.side] if not game.over else "-"),
        ("phase", "over" if game.over else game.phase),
        ("ply", str(game.ply)),
        ("over", "yes" if game.over else "no"),
        ("result", game.result() or "-"),
        ("reason", (game.reason or "-").replace(" ", "_")),
    ]
    return " ".join(f"{k}={v}" for k, v in fields)


@command("score")
def cmd_score(server: Server, args: list[str]) -> str:
    arity(args, 0, usage="score")
    game = server.game
    if isinstance(game, DvonnGame):
        white, black = game.scores()
        return f"white {white} black {black}"
    tops = game.visible_counts()
    return (f"white tzaar {tops['a']} tzarra {tops['b']} tott {tops['c']} "
            f"black tzaar {tops['A']} tzarra {tops['B']} tott {tops['C']}")


@command("final_score")
def cmd_final_score(server: Server, args: list[str]) -> str:
    arity(args, 0, usage="final_score")
    if not server.game.over:
        raise CommandError("the game is not over")
    return server.game.result()


def main_loop(seed: int = 0, stdin=None, stdout: Optional[TextIO] = None) -> None:
    Server(seed=seed).serve(stdin or sys.stdin.buffer, stdout or sys.stdout)
