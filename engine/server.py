"""The protocol server: one small handler per command, one table to find them.

Framing lives in gtp.py; rules in dvonn.py / tzaar.py.  A handler returns the
reply text or raises CommandError; no handler changes the game unless the
whole command succeeds.
"""
from __future__ import annotations

import logging
import sys
from typing import Callable, Optional, TextIO

from dataclasses import fields

from . import ENGINE_NAME, __version__, core, evaluation, gtp
from .clock import Clock
from .dvonn import DvonnGame
from .openings import MASK64, fixed_opening, random_opening
from .rules import COLOUR_NAMES, BadPosition, IllegalMove, parse_colour, perft
from .search import Options, Thought, core_phase, think
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
        self.options = Options(seed=seed)
        self.clock = Clock()
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
        if self.game.over:
            raise CommandError("the game is over")
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

    def think(self, limit_ms=None) -> Thought:
        if self.game.over:
            raise CommandError("the game is over")
        return think(self.game, self.options, self.clock, limit_ms)

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
    if core.AVAILABLE:
        return f"{__version__} core=compiled"
    return f"{__version__} core=unavailable ({core.UNAVAILABLE_REASON})"


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
    arity(args, 0, usage="quit")
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


def is_whole_number(text: str) -> bool:
    """ASCII digits only (str.isdigit() also accepts '²'), and few enough for int()."""
    return text.isascii() and text.isdigit() and len(text) <= 24


def parse_seed(text: str) -> int:
    if not is_whole_number(text) or int(text) > MASK64:
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
    server.setup = (cls.name, None)  # clear_board then starts this game afresh
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
        if game.ends_game_at_once(tokens[i]):
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
        if not is_whole_number(args[0]) or int(args[0]) < 1:
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
    side = server.game.side
    thought = server.think()
    server.game.push(thought.move)
    server.clock.spend(side, thought.time_ms)
    return server.game.move_text(thought.move)


@command("reg_genmove")
def cmd_reg_genmove(server: Server, args: list[str]) -> str:
    arity(args, 0, 1, usage="reg_genmove [colour]")
    if args:
        server.check_colour(args[0])
    return server.game.move_text(server.think().move)


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


# --- search, time and options ---------------------------------------------------------

OPTION_RANGES = {
    "threads": (1, 64), "hash": (1, 4096), "seed": (0, MASK64),
    "movetime": (0, 86_400_000), "depth": (0, 99), "nodes": (0, 10 ** 15),
}
OPTION_CHOICES = {"player": ("core", "python", "random"), "info": ("on", "off")}


@command("option")
def cmd_option(server: Server, args: list[str]) -> str:
    options = server.options
    if not args:
        lines = []
        for f in fields(options):
            value = getattr(options, f.name)
            if f.name in OPTION_RANGES:
                low, high = OPTION_RANGES[f.name]
                lines.append(f"{f.name} {value} int {low}..{high}")
            else:
                lines.append(f"{f.name} {value} choice {'|'.join(OPTION_CHOICES[f.name])}")
        return "\n".join(lines)
    arity(args, 2, usage="option [<name> <value>]")
    name, value = args[0].lower(), args[1]
    if name in OPTION_RANGES:
        low, high = OPTION_RANGES[name]
        if not is_whole_number(value) or not low <= int(value) <= high:
            raise CommandError(f"bad value {value!r} for {name}: a whole number from {low} to {high}")
        setattr(options, name, int(value))
    elif name in OPTION_CHOICES:
        if value.lower() not in OPTION_CHOICES[name]:
            raise CommandError(f"bad value {value!r} for {name}: one of {', '.join(OPTION_CHOICES[name])}")
        setattr(options, name, value.lower())
    else:
        raise CommandError(f"unknown option {args[0]!r}; 'option' lists them")
    return ""


def whole_number(text: str, what: str) -> int:
    if not is_whole_number(text) or len(text) > 15:
        raise CommandError(f"bad {what} {text!r}: a whole number")
    return int(text)


@command("time_settings")
def cmd_time_settings(server: Server, args: list[str]) -> str:
    arity(args, 3, usage="time_settings <main_time> <byo_yomi_time> <byo_yomi_stones>")
    main, byo, stones = (whole_number(a, "time") for a in args)
    if byo > 0 and stones == 0:  # GTP: no time limit
        server.clock.set_game(None)
    else:
        server.clock.set_game(main * 1000.0, 0.0, byo * 1000.0, stones)
    return ""


@command("time_left")
def cmd_time_left(server: Server, args: list[str]) -> str:
    arity(args, 3, usage="time_left <colour> <seconds> <stones>")
    try:
        side = parse_colour(args[0])
    except ValueError as e:
        raise CommandError(str(e)) from None
    seconds, stones = whole_number(args[1], "time"), whole_number(args[2], "stone count")
    server.clock.set_left(side, seconds * 1000.0, stones)
    return ""


@command("time_control")
def cmd_time_control(server: Server, args: list[str]) -> str:
    usage = "time_control <game_ms> [<increment_ms>] | time_control off"
    arity(args, 1, 2, usage=usage)
    if args[0].lower() == "off":
        arity(args, 1, usage=usage)
        server.clock.set_game(None)
        return ""
    game_ms = whole_number(args[0], "game time")
    increment = whole_number(args[1], "increment") if len(args) == 2 else 0
    if game_ms == 0:
        raise CommandError("the game time must be positive; 'time_control off' removes the clock")
    server.clock.set_game(float(game_ms), float(increment))
    return ""


@command("perft")
def cmd_perft(server: Server, args: list[str]) -> str:
    arity(args, 1, 2, usage="perft <depth> [python|core]")
    depth = whole_number(args[0], "depth")
    if depth > 12:
        raise CommandError("depth must be 12 or less")
    which = args[1].lower() if len(args) == 2 else ("core" if core.AVAILABLE else "python")
    game = server.game
    if which == "python":
        return str(perft(game, depth))
    if which != "core":
        raise CommandError(f"perft counts with python or core, not {args[1]!r}")
    if not core.AVAILABLE:
        raise CommandError(f"the compiled core is unavailable: {core.UNAVAILABLE_REASON}")
    return str(core.perft(game.name, game.cells, game.side, core_phase(game), depth))


@command("analyze")
def cmd_analyze(server: Server, args: list[str]) -> str:
    arity(args, 0, 1, usage="analyze [<time_ms>]")
    limit = float(whole_number(args[0], "time")) if args else None
    if limit == 0:
        raise CommandError("the time must be at least 1 ms; without it the current limits apply")
    thought = server.think(limit)
    lines = [server.game.move_text(thought.move)]
    if thought.score is not None:
        lines += [f"score {thought.score}", f"depth {thought.depth}", f"nodes {thought.nodes}"]
    lines += [f"time {int(thought.time_ms)}", "pv " + " ".join(thought.pv or [server.game.move_text(thought.move)])]
    return "\n".join(lines)


@command("eval")
def cmd_eval(server: Server, args: list[str]) -> str:
    arity(args, 0, usage="eval")
    try:
        return evaluation.eval_table(server.game, core_phase(server.game))
    except evaluation.WeightsError as e:
        raise CommandError(str(e)) from None


@command("weights")
def cmd_weights(server: Server, args: list[str]) -> str:
    usage = "weights [set <name> <value> ... | load <path> | reset]"
    game = server.game.name
    try:
        if not args:
            return evaluation.listing(game)
        verb = args[0].lower()
        if verb == "set" and len(args) >= 3 and len(args) % 2 == 1:
            return str(evaluation.set_weights(zip(args[1::2], args[2::2]), game))
        if verb == "load" and len(args) >= 2:
            return str(evaluation.load_file(" ".join(args[1:]), game))
        if verb == "reset" and len(args) == 1:
            evaluation.reset()
            return ""
    except evaluation.WeightsError as e:
        raise CommandError(str(e)) from None
    raise CommandError(f"wrong arguments; usage: {usage}")


# --- game records and GUI integration -------------------------------------------------
# loadrecord / printrecord use engine/records.py; the record's own header (player
# names, a resignation) travels with the game object it loaded, so it is forgotten
# as soon as another command replaces the game.  Whether the current game can be
# written as a record is decided from the game itself: taken back to its first
# move it must be a starting position (an empty DVONN board; a TZAAR layout of
# 60 single pieces before White's opening capture).  A setposition of a position
# in mid-game therefore cannot be written, a setposition of a start layout can.

def _record_source(server: Server):
    """(TZAAR opening or None, moves in our notation) of the current game; CommandError if
    the game does not go back to a starting position."""
    game = server.game
    moves = [move for move, _ in game.history]
    for _ in moves:  # back to the first position, then forward again
        game.pop()
    if isinstance(game, DvonnGame):
        start_ok = game.placed == 0 and game.side == 0 and not any(game.cells)
        opening = None
    else:
        start_ok = game.opening_turn and game.side == 0 and all(len(s) == 1 for s in game.cells)
        opening = list(game.cells)
    texts = []
    for move in moves:
        texts.append(game.move_text(move))
        game.push(move)
    if not start_ok:
        raise CommandError("printrecord needs a game from its start (newgame, loadrecord, or "
                           "setposition of a starting layout); this one was set up in mid-game")
    return opening, texts


MAX_RECORD_BYTES = 4 << 20  # the longest real record is a few kilobytes


def _read_record_file(path: str) -> bytes:
    """A regular file's bytes (not a device or pipe: /dev/stdin is the protocol itself)."""
    import os
    import stat
    name = path if len(path) <= 200 else path[:200] + "..."
    try:
        with open(path, "rb") as f:
            if not stat.S_ISREG(os.fstat(f.fileno()).st_mode):
                raise CommandError(f"cannot read {name}: not a regular file")
            data = f.read(MAX_RECORD_BYTES + 1)
    except OSError as e:
        raise CommandError(f"cannot read {name}: {e.strerror or type(e).__name__}") from None
    except ValueError:  # an embedded NUL
        raise CommandError(f"cannot read {name!r}: a file name has no NUL character") from None
    if len(data) > MAX_RECORD_BYTES:
        raise CommandError(f"cannot read {name}: larger than {MAX_RECORD_BYTES} bytes")
    return data


@command("loadrecord")
def cmd_loadrecord(server: Server, args: list[str]) -> str:
    from . import records
    usage = "loadrecord <path> [<moves>]"
    if not args:
        raise CommandError(f"wrong number of arguments; usage: {usage}")
    upto = None
    if len(args) > 1 and is_whole_number(args[-1]):
        upto = whole_number(args[-1], "move count")
        args = args[:-1]
    path = " ".join(args)
    data = _read_record_file(path)
    try:
        record = records.read_record(data)
        if upto is not None and upto > len(record.moves):
            raise CommandError(f"the record has only {len(record.moves)} moves, not {upto}")
        game = records.replay(record, upto)
    except records.RecordError as e:
        raise CommandError(f"bad record: {e}") from None
    played = len(record.moves) if upto is None else upto
    game.record_header = record  # names and resignation, for printrecord
    game.record_length = played
    server.game = game
    server.setup = (record.game, None)  # as after setposition: clear_board starts afresh
    reply = f"{played} move{'s' if played != 1 else ''}"
    if record.resigned_by is not None and played == len(record.moves):
        reply += f"; {COLOUR_NAMES['wb'.index(record.resigned_by)].capitalize()} resigned"
    elif game.over:
        reply += f"; game over: {game.result()} ({game.reason})"
    return reply


@command("printrecord")
def cmd_printrecord(server: Server, args: list[str]) -> str:
    from . import records
    arity(args, 0, usage="printrecord")
    opening, moves = _record_source(server)
    game = server.game
    if isinstance(game, TzaarGame) and opening == fixed_opening():
        opening = None
    record = records.GameRecord(game=game.name, moves=moves, opening=opening)
    header = getattr(game, "record_header", None)
    if header is not None:
        record.white, record.black, record.event, record.date = (
            header.white, header.black, header.event, header.date)
        if header.resigned_by is not None and game.ply == getattr(game, "record_length", -1) \
                == len(header.moves):
            record.resigned_by = header.resigned_by
    try:
        return records.write_littlegolem(record)
    except records.RecordError as e:
        raise CommandError(f"cannot write this game as a record: {e}") from None


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
    ("none", "New DVONN game", "newgame dvonn"),
    ("none", "New TZAAR game", "newgame tzaar"),
)


@command("gogui-analyze_commands")
def cmd_gogui_analyze_commands(server: Server, args: list[str]) -> str:
    arity(args, 0, usage="gogui-analyze_commands")
    return "\n".join(f"{kind}/{label}/{text}" for kind, label, text in ANALYZE_COMMANDS
                     if text.split()[0] in COMMANDS)



def main_loop(seed: int = 0, stdin=None, stdout: Optional[TextIO] = None) -> None:
    Server(seed=seed).serve(stdin or sys.stdin.buffer, stdout or sys.stdout)
