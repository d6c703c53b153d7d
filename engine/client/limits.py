"""Search limits as values, and how long to wait for a reply.

A `Limit` (like python-chess's `chess.engine.Limit`) is a search's time, depth and node bounds;
the client writes the `option` commands for it itself (`set_limit`), as it writes
`time_control` for a game clock (`set_clock`), and keeps the values it sent: it never reads
back a command it wrote.  Every reply has a time limit: `COMMAND_TIMEOUT` for ordinary
commands, and for a search (`genmove`, `reg_genmove`, `analyze`) twice the longest time the
limits allow plus `SEARCH_MARGIN`; searches that only a depth or node count bounds, `perft` and
`analyze live` get `UNBOUNDED_SEARCH_TIMEOUT` unless the caller passes its own.  A caller's own
command line that sets a limit (`option movetime|depth|nodes`, a `time_*` command) leaves that
limit unknown to the client, which then waits as long as it might take.
"""
from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Optional

from ..protocol import gtp
from ..search import DEFAULT_MOVETIME_MS

COMMAND_TIMEOUT = 60.0            # s: any command but a search (start-up and big records included)
SEARCH_MARGIN = 30.0              # s: added to twice a search's own time limit
UNBOUNDED_SEARCH_TIMEOUT = 3600.0  # s: a search with no time limit, perft, analyze live
SEARCH_COMMANDS = {"genmove", "reg_genmove", "analyze"}
CLOCK_COMMANDS = {"time_control", "time_settings", "time_left"}
UNKNOWN = -1                      # a limit a caller's own command line set


@dataclass(frozen=True)
class Limit:
    """A search's bounds, each in the engine's own `option`: `time_ms` (option movetime),
    `depth`, `nodes`.  0 turns a bound off; None leaves it as it is."""
    time_ms: Optional[int] = None
    depth: Optional[int] = None
    nodes: Optional[int] = None

    def commands(self) -> list[str]:
        """The option commands that set it."""
        return [f"option {option} {value}" for option, value in
                (("movetime", self.time_ms), ("depth", self.depth), ("nodes", self.nodes))
                if value is not None]


@dataclass(frozen=True)
class SearchLimits:
    """What the engine was told so far, as the engine starts: no bound, no clock."""
    time_ms: int = 0
    depth: int = 0
    nodes: int = 0
    clock_ms: Optional[int] = None  # the most any one move could be given; None: no clock

    def with_limit(self, limit: Limit) -> "SearchLimits":
        return replace(self, **{name: value for name, value in
                                (("time_ms", limit.time_ms), ("depth", limit.depth), ("nodes", limit.nodes))
                                if value is not None})

    def with_clock(self, game_ms: Optional[int], increment_ms: int = 0) -> "SearchLimits":
        return replace(self, clock_ms=None if game_ms is None else game_ms + increment_ms)

    def after_line(self, command: gtp.Command) -> "SearchLimits":
        """After a caller's own command line succeeded: what it set is no longer known."""
        if command.name == "option" and len(command.args) == 2 \
                and command.args[0].lower() in ("movetime", "depth", "nodes"):
            return replace(self, **{"time_ms" if command.args[0].lower() == "movetime"
                                    else command.args[0].lower(): UNKNOWN})
        if command.name in CLOCK_COMMANDS:
            return replace(self, clock_ms=UNKNOWN)
        return self

    def think_ms(self) -> Optional[int]:
        """The longest a genmove may think; None when nothing known bounds it in time."""
        times = [t for t in (self.time_ms, self.clock_ms) if t is not None and t > 0]
        if times:  # the engine stops at the least of its time limits
            return min(times)
        if UNKNOWN in (self.time_ms, self.clock_ms, self.depth, self.nodes) or self.depth or self.nodes:
            return None
        return DEFAULT_MOVETIME_MS

    def reply_timeout(self, command: Optional[gtp.Command], default: float) -> float:
        """How long to wait for the reply to this command line."""
        if command is None:
            return default
        name, args = command.name, command.args
        if name == "perft" or (name == "analyze" and args[:1] == ["live"]):
            return UNBOUNDED_SEARCH_TIMEOUT
        if name not in SEARCH_COMMANDS:
            return default
        ms = int(args[0]) if name == "analyze" and args and args[0].isdigit() else self.think_ms()
        if ms is None:
            return UNBOUNDED_SEARCH_TIMEOUT
        return max(default, 2 * ms / 1000 + SEARCH_MARGIN)
