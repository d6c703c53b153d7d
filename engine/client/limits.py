"""How long to wait for a reply: the reply-timeout policy.

Every reply has a time limit: `COMMAND_TIMEOUT` for ordinary commands, and for a search
(`genmove`, `reg_genmove`, `analyze`) twice the longest time its limits allow (`option movetime`,
the clock, `analyze <ms>`, as sent through the client) plus `SEARCH_MARGIN`; searches that only
a depth or node count bounds, `perft` and `analyze live` get `UNBOUNDED_SEARCH_TIMEOUT` unless
the caller passes its own.  The limits are read from the commands the client sent and the
engine accepted.
"""
from __future__ import annotations

from typing import Optional

COMMAND_TIMEOUT = 60.0            # s: any command but a search (start-up and big records included)
SEARCH_MARGIN = 30.0              # s: added to twice a search's own time limit
UNBOUNDED_SEARCH_TIMEOUT = 3600.0  # s: a search with no time limit, perft, analyze live
DEFAULT_THINK_MS = 1000           # genmove with no limit at all (protocol.md 6.3)
SEARCH_COMMANDS = {"genmove", "reg_genmove", "analyze"}


def command_words(line: str) -> list[str]:
    """The command's name and arguments (no id, no comment), as the engine splits them."""
    words = line.split("#", 1)[0].split()
    if words and words[0].isdigit():
        words = words[1:]
    return words


class SearchLimits:
    """The time limits sent through the client, to bound how long a search may take."""

    def __init__(self) -> None:
        self.movetime_ms = 0
        self.depth = 0
        self.nodes = 0
        self.clock_ms: Optional[int] = None  # the most any one move could be given

    def update(self, words: list[str]) -> None:
        """After a command succeeded."""
        try:
            name, args = words[0], words[1:]
            if name == "option" and len(args) == 2 and args[0].lower() in ("movetime", "depth",
                                                                              "nodes"):
                setattr(self, {"movetime": "movetime_ms"}.get(args[0].lower(), args[0].lower()),
                        int(args[1]))
            elif name == "time_control" and args:
                self.clock_ms = None if args[0] == "off" else sum(int(a) for a in args[:2])
            elif name == "time_settings" and len(args) == 3:
                main, byo, stones = (int(a) for a in args)
                self.clock_ms = None if byo > 0 and stones == 0 else 1000 * (main + byo)
            elif name == "time_left" and len(args) == 3:
                self.clock_ms = max(self.clock_ms or 0, 1000 * int(args[1]))
        except (IndexError, ValueError):
            pass

    def think_ms(self) -> Optional[int]:
        """The longest a genmove may think; None when only depth or nodes bound it."""
        times = [t for t in (self.movetime_ms or None, self.clock_ms) if t is not None]
        if times:
            return min(times)
        return None if self.depth or self.nodes else DEFAULT_THINK_MS

    def reply_timeout(self, words: list[str], default: float) -> float:
        """How long to wait for the reply to this command."""
        if not words:
            return default
        name, args = words[0], words[1:]
        if name == "perft" or (name == "analyze" and args[:1] == ["live"]):
            return UNBOUNDED_SEARCH_TIMEOUT
        if name not in SEARCH_COMMANDS:
            return default
        if name == "analyze" and args and args[0].isdigit():
            ms: Optional[int] = int(args[0])
        else:
            ms = self.think_ms()
        if ms is None:
            return UNBOUNDED_SEARCH_TIMEOUT
        return max(default, 2 * ms / 1000 + SEARCH_MARGIN)
