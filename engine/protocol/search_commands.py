"""The protocol's search, time and option commands: option, time_settings, time_left,
time_control, perft, analyze, eval and weights (protocol.md §6).

The searching itself is engine.search's and engine.protocol.analyze's, the evaluation
tables engine.evaluation's; these handlers read arguments and format replies.
"""
from __future__ import annotations

from typing import TYPE_CHECKING

from .. import core
from . import analyze
from .arguments import CommandError, arity, colour, whole_number
from .commands import Handler

if TYPE_CHECKING:
    from .server import Server


def cmd_option(server: Server, args: list[str]) -> str:
    if not args:
        return server.options.listing()
    arity(args, 2, usage="option [<name> <value>]")
    server.options.set(args[0], args[1])  # its on-change hook (hash: the table) runs there
    return ""


def cmd_time_settings(server: Server, args: list[str]) -> str:
    arity(args, 3, usage="time_settings <main_time> <byo_yomi_time> <byo_yomi_stones>")
    main, byo, stones = (whole_number(a, "time") for a in args)
    if byo > 0 and stones == 0:  # GTP: no time limit
        server.clock.set_game(None)
    else:
        server.clock.set_game(main * 1000.0, 0.0, byo * 1000.0, stones)
    return ""


def cmd_time_left(server: Server, args: list[str]) -> str:
    arity(args, 3, usage="time_left <colour> <seconds> <stones>")
    side = colour(args[0])
    seconds, stones = whole_number(args[1], "time"), whole_number(args[2], "stone count")
    server.clock.set_left(side, seconds * 1000.0, stones)
    return ""


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


def no_core(game) -> str:
    """Why the compiled core cannot take this game."""
    if not core.AVAILABLE:
        return f"the compiled core is unavailable: {core.UNAVAILABLE_REASON}"
    return f"{game.title} has no compiled core"


def cmd_perft(server: Server, args: list[str]) -> str:
    arity(args, 1, 2, usage="perft <depth> [python|core]")
    depth = whole_number(args[0], "depth")
    if depth > 12:
        raise CommandError("depth must be 12 or less")
    has_core = core.has_game(server.game.name)
    which = args[1].lower() if len(args) == 2 else ("core" if has_core else "python")
    if which not in ("python", "core"):
        raise CommandError(f"perft counts with python or core, not {args[1]!r}")
    if which == "core" and not has_core:
        raise CommandError(no_core(server.game))
    try:
        return str(analyze.perft(server.game, depth, which, server.control.stop))
    except core.Interrupted:
        raise CommandError("perft interrupted") from None


def cmd_analyze(server: Server, args: list[str]) -> str:
    if args and args[0].lower() == "live":
        arity(args, 1, 2, usage="analyze live [<interval_ms>]")
        return analyze.analyze_live(server, args[1:])
    arity(args, 0, 1, usage="analyze [<time_ms>] | analyze live [<interval_ms>]")
    limit = float(whole_number(args[0], "time")) if args else None
    if limit == 0:
        raise CommandError("the time must be at least 1 ms; without it the current limits apply")
    return analyze.analyze(server, limit)


def cmd_eval(server: Server, args: list[str]) -> str:
    from .. import evaluation  # the weights' tables: imported by the commands that use them
    arity(args, 0, usage="eval")
    if core.AVAILABLE and not core.has_game(server.game.name):
        raise CommandError(no_core(server.game))
    try:
        return evaluation.eval_table(server.game, core.phase(server.game))
    except evaluation.WeightsError as e:
        raise CommandError(str(e)) from None


def cmd_weights(server: Server, args: list[str]) -> str:
    from .. import evaluation  # the weights' tables: imported by the commands that use them
    usage = "weights [set <name> <value> ... | load <path> | reset]"
    game = server.game.name
    try:
        if not args:
            return evaluation.listing(game)
        verb = args[0].lower()
        if verb == "set" and len(args) >= 3 and len(args) % 2 == 1:
            return str(evaluation.set_weights(zip(args[1::2], args[2::2]), game))
        if verb == "load" and len(args) >= 2:
            return evaluation.load_file(" ".join(args[1:]), game)
        if verb == "reset" and len(args) == 1:
            evaluation.reset()
            return ""
    except evaluation.WeightsError as e:
        raise CommandError(str(e)) from None
    raise CommandError(f"wrong arguments; usage: {usage}")


COMMANDS: dict[str, Handler] = {  # this module's part of the command table
    "option": cmd_option,
    "time_settings": cmd_time_settings,
    "time_left": cmd_time_left,
    "time_control": cmd_time_control,
    "perft": cmd_perft,
    "analyze": cmd_analyze,
    "eval": cmd_eval,
    "weights": cmd_weights,
}
