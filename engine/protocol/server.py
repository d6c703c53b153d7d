"""The protocol server: one small handler per command, one table to find them.

Framing lives in gtp.py; rules in the game modules (engine/games lists
them), argument parsing in arguments.py.  A handler returns the reply text or
raises CommandError; no handler changes the game unless the whole command
succeeds.  Handlers ask the game (engine/rules.py GameBase), never which game
it is.
"""
from __future__ import annotations

import logging
import sys
from typing import TYPE_CHECKING, Optional, TextIO

from .. import ENGINE_NAME, __version__, core
from ..clock import Clock
from ..games import DEFAULT_GAME, GAMES
from ..ponder import Ponder
from ..rules import COLOUR_NAMES, BadPosition, IllegalMove, UnreadableMove
from ..search import Progress, Thought, Watch, think
from ..splitmix64 import MASK64
from . import analysis_lines, gtp, record_commands, search_commands
from .arguments import CommandError, arity, colour, whole_number
from .commands import Handler, join_tables
from .options import Options
from .serving import Control, Quit, Session

if TYPE_CHECKING:
    from ..records import GameRecord

log = logging.getLogger("engine")

__all__ = ["COMMANDS", "CommandError", "Quit", "Server", "main_loop"]


def diagnostic(line: str) -> None:
    """One line for stderr, or nothing: a closed or failing stderr (2>&-, /dev/full) drops it,
    never sends it to stdout (replies only) and never fails the command that reports."""
    stream = sys.stderr
    if stream is None:
        return
    try:
        stream.write(line + "\n")
        stream.flush()
    except (OSError, ValueError):
        pass


def ascii_only(text: str) -> None:
    """Moves are written in ASCII: 'ı3'.upper() would otherwise read as I3."""
    if not text.isascii():
        raise CommandError(f"cannot read {text!r} as a move: moves are written in ASCII")


def move_error(e: IllegalMove) -> str:
    """`cannot read ...` for text that is no move, `illegal move: ...` for a move the rules refuse."""
    return str(e) if isinstance(e, UnreadableMove) else f"illegal move: {e}"


class Server:
    def __init__(self, seed: int = 0) -> None:
        self.options = Options(seed=seed)
        self.clock = Clock()
        self.setup: tuple[str, Optional[int]] = (DEFAULT_GAME, None)  # game, opening seed
        self.game = GAMES[DEFAULT_GAME].start()
        # a loaded record's names and resignation, and its moves played, for printrecord
        self.record_header: Optional["GameRecord"] = None
        self.record_length = 0
        self.control = Control()  # a Session replaces it while serving
        self.ponder = Ponder()

    def prepare(self) -> None:
        """First-call set-up of the core (its tables, the hash table), so that the first
        search does not pay for it on its clock; the session runs it at start-up."""
        if core.AVAILABLE:
            try:
                core.prepare(self.options.hash)
            except core.CoreError as e:
                log.warning("%s", e)

    def close(self) -> None:
        """The session ends: no search may outlive it."""
        self.ponder.cancel()

    # --- helpers ---------------------------------------------------------
    def new_game(self, name: str, opening_seed: Optional[int]) -> None:
        self.set_game(GAMES[name].start(opening_seed), (name, opening_seed))

    def set_game(self, game, setup: tuple[str, Optional[int]], record_header: Optional["GameRecord"] = None,
                 record_length: int = 0) -> None:
        """Replace the game; `setup` is what clear_board starts afresh; `record_header` the
        record it was loaded from (None: not loaded).  The hash table is cleared (a new game's
        search repeats exactly) unless keephash is on."""
        self.game, self.setup = game, setup
        self.options.for_game(game.name)  # the level stays; its Elo is this game's
        self.record_header, self.record_length = record_header, record_length
        if self.options.keephash == "off" and core.AVAILABLE:
            core.clear_hash()

    def check_colour(self, text: str) -> None:
        if self.game.over:
            raise CommandError("the game is over")
        side = colour(text)
        if side != self.game.side:
            raise CommandError(f"it is {COLOUR_NAMES[self.game.side]}'s turn, not {COLOUR_NAMES[side]}'s")

    def play(self, text: str) -> str:
        """Check and play one move given as text; return its canonical text."""
        game = self.game
        if game.over:
            raise CommandError("the game is over")
        ascii_only(text)
        try:
            move = game.play_text(text)
        except IllegalMove as e:
            raise CommandError(move_error(e)) from None
        return game.move_text(move)

    def report(self, progress: Progress) -> None:
        if self.options.info == "on":
            diagnostic(analysis_lines.progress_line(progress))

    def think(self, limit_ms=None, watch: Optional[Watch] = None,
              on_progress=None) -> Thought:
        """Search the current position; stopped by the session's interrupts.  genmove and
        reg_genmove (no watch, no limit) may play a book move or take over a pondering search
        after a hit (search.think's pipeline)."""
        if self.game.over:
            raise CommandError("the game is over")
        plays = watch is None and limit_ms is None
        return think(self.game, self.options, self.clock, limit_ms, on_progress or self.report,
                     watch or Watch(stop=self.control.stop, play=True), book_on=plays,
                     ponder=self.ponder if plays else None, on_book=self.report_book)

    def report_book(self, move_text: str, entry) -> None:
        if self.options.info == "on":
            diagnostic(analysis_lines.book_line(move_text, entry.games, entry.score))

    def handle(self, cmd: gtp.Command) -> tuple[bool, str]:
        if cmd.error:
            return False, cmd.error
        handler = COMMANDS.get(cmd.name)
        if handler is None:
            return False, f"unknown command: {cmd.name}"
        self.ponder.before(cmd.name)
        try:
            return True, handler(self, cmd.args)
        except CommandError as e:
            return False, str(e)
        finally:
            self.ponder.after(cmd.name, self.game)

    def serve(self, stdin, stdout: TextIO, handle_signals: bool = False) -> None:
        """Serve commands until quit or end of input (engine/protocol/serving.py)."""
        Session(self, stdin, stdout, handle_signals).serve()


# --- administrative ------------------------------------------------------------

def cmd_protocol_version(server: Server, args: list[str]) -> str:
    arity(args, 0, usage="protocol_version")
    return "2"


def cmd_name(server: Server, args: list[str]) -> str:
    arity(args, 0, usage="name")
    return ENGINE_NAME


def cmd_version(server: Server, args: list[str]) -> str:
    arity(args, 0, usage="version")
    if core.AVAILABLE:
        from .. import network
        names = network.loaded_names()
        return f"{__version__} core=compiled" + "".join(f" {g}-network={n}" for g, n in names)
    return f"{__version__} core=unavailable ({core.UNAVAILABLE_REASON})"


def cmd_known_command(server: Server, args: list[str]) -> str:
    arity(args, 1, usage="known_command <name>")
    return "true" if args[0] in COMMANDS else "false"


def cmd_list_commands(server: Server, args: list[str]) -> str:
    arity(args, 0, usage="list_commands")
    return "\n".join(sorted(COMMANDS))


def cmd_help(server: Server, args: list[str]) -> str:
    """GNU Go's alias of list_commands, for a person typing at the engine."""
    arity(args, 0, usage="help")
    return "\n".join(sorted(COMMANDS))


def cmd_quit(server: Server, args: list[str]) -> str:
    arity(args, 0, usage="quit")
    raise Quit


# --- game setup ------------------------------------------------------------------

def newgame_usage() -> str:
    return " | ".join(f"newgame {name}" + (" [fixed | random <seed>]" if cls.has_openings else "")
                      for name, cls in GAMES.items())


def cmd_newgame(server: Server, args: list[str]) -> str:
    usage = newgame_usage()
    if not args:
        raise CommandError(f"which game? usage: {usage}")
    cls = GAMES.get(args[0].lower())
    if cls is None:
        raise CommandError(f"unknown game {args[0]!r}; usage: {usage}")
    opening = [a.lower() for a in args[1:]]
    if not cls.has_openings:
        arity(args, 1, usage=usage)
        seed = None
    elif opening in ([], ["fixed"]):
        seed = None
    elif len(opening) == 2 and opening[0] == "random":
        seed = whole_number(opening[1], "seed", 0, MASK64)
    else:
        raise CommandError(f"bad {cls.title} opening; usage: {usage}")
    server.new_game(cls.name, seed)
    return ""


def cmd_clear_board(server: Server, args: list[str]) -> str:
    arity(args, 0, usage="clear_board")
    server.new_game(*server.setup)
    return ""


def cmd_setposition(server: Server, args: list[str]) -> str:
    if not args:
        raise CommandError("usage: setposition <position string as printed by position>")
    cls = GAMES.get(args[0].lower())
    if cls is None:
        raise CommandError(f"a position string starts with {' or '.join(GAMES)}")
    try:
        game = cls.from_position(" ".join(args))
    except BadPosition as e:
        raise CommandError(f"bad position: {e}") from None
    server.set_game(game, (cls.name, None))  # clear_board then starts this game afresh
    return ""


def cmd_position(server: Server, args: list[str]) -> str:
    arity(args, 0, usage="position")
    return server.game.position()


# --- moves -------------------------------------------------------------------------

def cmd_play(server: Server, args: list[str]) -> str:
    if len(args) < 2:
        raise CommandError("usage: play <colour> <move>")
    server.check_colour(args[0])
    return server.play(" ".join(args[1:]))


def cmd_move(server: Server, args: list[str]) -> str:
    if not args:
        raise CommandError("usage: move <move>")
    return server.play(" ".join(args))


def cmd_place(server: Server, args: list[str]) -> str:
    arity(args, 1, usage="place <point>")
    game = server.game
    if game.phase != "placement":
        if type(game).start().phase == "placement":  # a game that opens by placing pieces
            raise CommandError(f"place is for {game.title}'s placement phase")
        raise CommandError(f"place is for a placement phase; {game.title} has none")
    return server.play(args[0])


def cmd_replay(server: Server, args: list[str]) -> str:
    """Play a whole move list at once, or nothing at all if any move fails."""
    game = server.game
    tokens = " ".join(args).replace(",", " ").replace(";", " ").split()
    start = game.ply
    played = 0
    try:
        for text in game.group_turns(tokens):
            if game.over:
                raise CommandError(f"move {played + 1} ({text}): the game is over")
            try:
                ascii_only(text)
                game.play_text(text)
            except CommandError as e:
                raise CommandError(f"move {played + 1} ({text}): {e}") from None
            except IllegalMove as e:
                raise CommandError(f"move {played + 1} ({text}): {move_error(e)}") from None
            played += 1
    except CommandError:
        while game.ply > start:
            game.pop()
        raise
    return str(played)


def cmd_undo(server: Server, args: list[str]) -> str:
    arity(args, 0, 1, usage="undo [n]")
    count = whole_number(args[0], "count", 1, None) if args else 1
    if count > server.game.ply:
        raise CommandError(f"cannot undo {count} move{'s' if count > 1 else ''}: "
                           f"only {server.game.ply} played")
    for _ in range(count):
        server.game.pop()
    return ""


def cmd_move_history(server: Server, args: list[str]) -> str:
    """GNU Go's move_history: the moves since the game's start, newest first, with the mover."""
    arity(args, 0, usage="move_history")
    game = server.game
    lines = []
    with game.back_to_start() as moves:  # each move's text and mover as of its own position
        for move in moves:
            lines.append(f"{COLOUR_NAMES[game.side]} {game.move_text(move)}")
            game.push(move)
    return "\n".join(reversed(lines))


def cmd_genmove(server: Server, args: list[str]) -> str:
    arity(args, 0, 1, usage="genmove [colour]")
    if args:
        server.check_colour(args[0])
    side = server.game.side
    thought = server.think()
    server.game.push(thought.move)
    server.clock.spend(side, thought.time_ms)
    server.ponder.start(server.game, server.options, thought)
    return server.game.move_text(thought.move)


def cmd_reg_genmove(server: Server, args: list[str]) -> str:
    arity(args, 0, 1, usage="reg_genmove [colour]")
    if args:
        server.check_colour(args[0])
    return server.game.move_text(server.think().move)


def cmd_legal_moves(server: Server, args: list[str]) -> str:
    arity(args, 0, usage="legal_moves")
    game = server.game
    return "\n".join(game.move_text(m) for m in game.legal_moves())


# --- state ---------------------------------------------------------------------------

def cmd_showboard(server: Server, args: list[str]) -> str:
    arity(args, 0, usage="showboard")
    game = server.game
    footer = f"{COLOUR_NAMES[game.side]} to act, {game.phase}"
    if game.over:
        footer = f"game over: {game.result()} ({game.reason})"
    return f"{game.board_text()}\n{footer}"


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


def cmd_score(server: Server, args: list[str]) -> str:
    arity(args, 0, usage="score")
    return server.game.score_text()


def cmd_final_score(server: Server, args: list[str]) -> str:
    arity(args, 0, usage="final_score")
    if not server.game.over:
        raise CommandError("the game is not over")
    result = server.game.result()
    assert result is not None, "a game that is over has a result"
    return result


# GoGui's analyze commands (type/label/command); only commands in the table are listed.
ANALYZE_COMMANDS = (
    ("string", "Analyze", "analyze"),
    ("string", "Legal moves", "legal_moves"),
    ("string", "Status", "status"),
    ("string", "Position", "position"),
    ("string", "Score", "score"),
    ("string", "Static evaluation", "eval"),
    ("string", "Final score", "final_score"),
    ("string", "Show board", "showboard"),
    ("string", "Print record", "printrecord"),
    ("string", "Options", "option"),
    ("string", "Perft 3", "perft 3"),
    ("none", "Undo", "undo"),
    ("none", "Clear board", "clear_board"),
) + tuple(("none", f"New {cls.title} game", f"newgame {name}") for name, cls in GAMES.items())


def cmd_gogui_interrupt(server: Server, args: list[str]) -> str:
    """Listed so GoGui knows it may send `# interrupt` lines (engine/protocol/serving.py reads them)."""
    arity(args, 0, usage="gogui-interrupt")
    return ""


def cmd_gogui_analyze_commands(server: Server, args: list[str]) -> str:
    arity(args, 0, usage="gogui-analyze_commands")
    return "\n".join(f"{kind}/{label}/{text}" for kind, label, text in ANALYZE_COMMANDS
                     if text.split()[0] in COMMANDS)



SERVER_COMMANDS: dict[str, Handler] = {  # administrative, game set-up, moves, state, GoGui
    "protocol_version": cmd_protocol_version,
    "name": cmd_name,
    "version": cmd_version,
    "known_command": cmd_known_command,
    "list_commands": cmd_list_commands,
    "help": cmd_help,
    "quit": cmd_quit,
    "newgame": cmd_newgame,
    "clear_board": cmd_clear_board,
    "setposition": cmd_setposition,
    "position": cmd_position,
    "play": cmd_play,
    "move": cmd_move,
    "place": cmd_place,
    "replay": cmd_replay,
    "undo": cmd_undo,
    "move_history": cmd_move_history,
    "genmove": cmd_genmove,
    "reg_genmove": cmd_reg_genmove,
    "legal_moves": cmd_legal_moves,
    "showboard": cmd_showboard,
    "status": cmd_status,
    "score": cmd_score,
    "final_score": cmd_final_score,
    "gogui-interrupt": cmd_gogui_interrupt,
    "gogui-analyze_commands": cmd_gogui_analyze_commands,
}

# The command table, GNU Go's commands[]: every command and its handler, from each module's table.
COMMANDS: dict[str, Handler] = join_tables(SERVER_COMMANDS, search_commands.COMMANDS, record_commands.COMMANDS)


def main_loop(seed: int = 0, stdin=None, stdout: Optional[TextIO] = None) -> None:
    """Serve stdin/stdout (with SIGINT handling) or the given streams."""
    Server(seed=seed).serve(stdin or sys.stdin.buffer, stdout or sys.stdout,
                            handle_signals=stdin is None)
