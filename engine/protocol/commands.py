"""The command table: every protocol command's handler, registered by name with @command.

The handler modules (engine/protocol/server.py, record_commands.py, search_commands.py) fill it when
they are imported; engine.protocol.server imports the other two at its top, so the table is complete
once the server is, with no import circle (handlers know the Server only as a type)."""
from __future__ import annotations

from typing import TYPE_CHECKING, Callable

if TYPE_CHECKING:
    from .server import Server

Handler = Callable[["Server", list[str]], str]
COMMANDS: dict[str, Handler] = {}


def command(name: str) -> Callable[[Handler], Handler]:
    def register(handler: Handler) -> Handler:
        COMMANDS[name] = handler
        return handler
    return register
