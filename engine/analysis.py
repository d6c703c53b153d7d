"""`analyze`, `analyze live` and a perft that obeys interrupts (protocol.md 6.4, 6.5, 6.6).

Nothing here plays a move or charges a clock.  The commands' text formats live
here; the searching is search.think's and the serving (stop flags, streamed
replies) the session's, reached through ``server.control``.
"""
from __future__ import annotations

from . import core
from .rules import perft as rules_perft
from .search import Watch, pv_text

LIVE_INTERVAL_MS = 200
LIVE_INTERVAL_RANGE = (10, 60_000)


class AnalysisError(Exception):
    """Bad arguments or state; the message is the `?` reply."""


def candidate_lines(game, thought) -> list[str]:
    """`multipv k move m score s depth d pv ...` for each multi-PV candidate, best first."""
    out = []
    for k, line in enumerate(thought.lines, 1):
        pv = pv_text(game, line.pv)
        out.append(f"multipv {k} move {pv[0]} score {line.score} depth {thought.depth} "
                   f"pv {' '.join(pv)}")
    return out


def analyze(server, limit_ms) -> str:
    """The reply of `analyze [<time_ms>]`: the best move, then its search figures."""
    game = server.game
    watch = Watch(stop=server.control.stop, multipv=server.options.multipv)
    thought = server.think(limit_ms, watch)
    lines = [game.move_text(thought.move)]
    if thought.score is not None:
        lines += [f"score {thought.score}", f"depth {thought.depth}", f"nodes {thought.nodes}"]
    lines += [f"time {int(thought.time_ms)}",
              "pv " + " ".join(thought.pv or [game.move_text(thought.move)])]
    if server.options.multipv > 1 and thought.score is not None:
        lines += candidate_lines(game, thought)
    return "\n".join(lines)


def info_lines(game, it: core.SearchResult) -> list[str]:
    """One `info multipv k move m score ...` line per candidate of a search report."""
    nps = int(it.nodes * 1000 / max(it.time_ms, 1))
    out = []
    for k, line in enumerate(it.lines or [core.Line(it.score, it.pv)], 1):
        pv = pv_text(game, line.pv)
        if not pv:
            continue
        out.append(f"info multipv {k} move {pv[0]} score {line.score} depth {it.depth} "
                   f"nodes {it.nodes} nps {nps} time {int(it.time_ms)} pv {' '.join(pv)}")
    return out


def parse_interval(args: list[str]) -> int:
    if not args:
        return LIVE_INTERVAL_MS
    low, high = LIVE_INTERVAL_RANGE
    text = args[0]
    if not (text.isascii() and text.isdigit() and len(text) <= 6) or not low <= int(text) <= high:
        raise AnalysisError(f"bad interval {text!r}: a whole number of ms from {low} to {high}")
    return int(text)


def analyze_live(server, args: list[str]) -> str:
    """`analyze live [<interval_ms>]`: `=` now, `info` lines while searching, until the
    next input line (or the search ends by itself); then `bestmove <move>`."""
    interval = parse_interval(args)
    game = server.game
    if game.over:
        raise AnalysisError("the game is over")
    control = server.control
    emit = control.open_stream()
    control.stop_on_input()

    def report(it: core.SearchResult) -> None:
        for line in info_lines(game, it):
            emit(line)

    watch = Watch(stop=control.stop, on_iteration=report, report_ms=interval, untimed=True,
                  multipv=server.options.multipv)
    thought = server.think(None, watch)
    return control.close_stream(f"bestmove {game.move_text(thought.move)}")


def perft(game, depth: int, which: str, stop: core.StopFlag) -> int:
    """Leaf count; core.Interrupted when `stop` is set first."""
    if which == "core":
        from .search import core_phase
        return core.perft(game.name, game.cells, game.side, core_phase(game), depth, stop)
    stop.running += 1  # so that SIGINT stops it rather than ending the engine
    try:
        return _python_perft(game, depth, stop)
    finally:
        stop.running -= 1


def _python_perft(game, depth: int, stop: core.StopFlag) -> int:
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
