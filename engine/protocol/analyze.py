"""`analyze`, `analyze live` and a perft that obeys interrupts (protocol.md 6.4, 6.5, 6.6).

Nothing here plays a move or charges a clock.  The lines' text is analysis_lines'; the
searching is search.think's and the serving (stop flags, streamed replies) the session's,
reached through ``server.control``.
"""
from __future__ import annotations

from .. import core
from ..rules import perft as rules_perft
from ..search import Progress, Watch
from ..stop_flag import StopFlag
from . import analysis_lines
from .arguments import CommandError

LIVE_INTERVAL_MS = 200
LIVE_INTERVAL_RANGE = (10, 60_000)


def analyze(server, limit_ms) -> str:
    """The reply of `analyze [<time_ms>]`: the best move, then its search figures."""
    game = server.game
    watch = Watch(stop=server.control.stop, multipv=server.options.multipv)
    thought = server.think(limit_ms, watch)
    return analysis_lines.analyze_reply(game.move_text(thought.move), thought, server.options.multipv)


def parse_interval(args: list[str]) -> int:
    if not args:
        return LIVE_INTERVAL_MS
    low, high = LIVE_INTERVAL_RANGE
    text = args[0]
    if not (text.isascii() and text.isdigit() and len(text) <= 6) or not low <= int(text) <= high:
        raise CommandError(f"bad interval {text!r}: a whole number of ms from {low} to {high}")
    return int(text)


def analyze_live(server, args: list[str]) -> str:
    """`analyze live [<interval_ms>]`: `=` now, `info` lines while searching, until the
    next input line (or the search ends by itself); then `bestmove <move>`."""
    interval = parse_interval(args)
    game = server.game
    if game.over:
        raise CommandError("the game is over")
    control = server.control
    emit = control.open_stream()
    control.stop_on_input()

    def report(progress: Progress) -> None:
        for line in analysis_lines.live_lines(progress):
            emit(line)

    watch = Watch(stop=control.stop, report_ms=interval, untimed=True,
                  multipv=server.options.multipv)
    thought = server.think(None, watch, on_progress=report)
    if thought.warning:  # the core failed: say so where the client reads, not only on stderr
        emit(analysis_lines.fallback_line(thought.warning))
    return control.close_stream(analysis_lines.bestmove_line(game.move_text(thought.move)))


def perft(game, depth: int, which: str, stop: StopFlag) -> int:
    """Leaf count; core.Interrupted when `stop` is set first."""
    if which == "core":
        return core.perft(game.name, game.cells, game.side, core.phase(game), depth, stop)
    stop.running += 1  # so that SIGINT stops it rather than ending the engine
    try:
        return _python_perft(game, depth, stop)
    finally:
        stop.running -= 1


def _python_perft(game, depth: int, stop: StopFlag) -> int:
    if depth <= 1:
        return rules_perft(game, depth)
    if stop.is_set():
        raise core.Interrupted("perft interrupted")
    total = 0
    for move in game.legal_moves():
        game.push(move)
        try:
            total += _python_perft(game, depth - 1, stop)
        finally:
            game.pop()
    return total
