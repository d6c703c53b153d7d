"""The command table's parts: each handler module ends with its table (name -> handler, as GNU
Go's `commands[]`), and the server joins them into one (engine/protocol/server.py COMMANDS).
Nothing registers itself by being imported; handlers know the Server only as a type."""
from __future__ import annotations

from typing import TYPE_CHECKING, Callable

if TYPE_CHECKING:
    from .server import Server

Handler = Callable[["Server", list[str]], str]


def join_tables(*tables: dict[str, Handler]) -> dict[str, Handler]:
    """One table from the modules' tables; a name in two of them is a bug (ValueError)."""
    joined: dict[str, Handler] = {}
    for table in tables:
        for name, handler in table.items():
            if name in joined:
                raise ValueError(f"the command {name!r} has two handlers")
            joined[name] = handler
    return joined
