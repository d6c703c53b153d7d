"""The client side of the protocol: start an engine process, ask it commands, and never wait
for it forever nor leave it running behind us.

One concern a module:

* errors.py: what a caller may catch (EngineError and its kinds);
* children.py: the child's command line and environment (the default engine is this package's
  own, whatever the working folder), process groups, the cleanup at exit and on signals
  (installed by the first engine started, or explicitly by install_cleanup(), never at import);
* limits.py: search limits as values (Limit) and how long a reply may take;
* async_engine.py: AsyncEngineProcess, the asyncio core (the web GUI uses it);
* sync_engine.py: EngineProcess, its blocking face for the tools, on one background event loop.

The CodeCup line-protocol player is beside the CodeCup tools (engine/games/dvonn/line_player.py).
"""
from __future__ import annotations

from .async_engine import LINE_LIMIT, AsyncEngineProcess
from .children import (
    DEFAULT_ENGINE,
    DEFAULT_ENGINE_ARGV,
    KILL_WAIT,
    QUIT_WAIT,
    REPO,
    TERMINATE_WAIT,
    command_argv,
    command_env,
    default_engine_argv,
    default_env,
    install_cleanup,
    kill_children,
    start,
    stop_popen,
)
from .errors import EngineDied, EngineError, EngineRefused, EngineTimeout
from .limits import (
    COMMAND_TIMEOUT,
    SEARCH_COMMANDS,
    SEARCH_MARGIN,
    UNBOUNDED_SEARCH_TIMEOUT,
    Limit,
    SearchLimits,
)
from .sync_engine import EngineProcess

__all__ = [
    "COMMAND_TIMEOUT", "DEFAULT_ENGINE", "DEFAULT_ENGINE_ARGV", "KILL_WAIT", "Limit",
    "LINE_LIMIT", "QUIT_WAIT", "REPO", "SEARCH_COMMANDS", "SEARCH_MARGIN", "TERMINATE_WAIT",
    "UNBOUNDED_SEARCH_TIMEOUT", "AsyncEngineProcess", "EngineDied", "EngineError", "EngineProcess",
    "EngineRefused", "EngineTimeout", "SearchLimits", "command_argv", "command_env",
    "default_engine_argv", "default_env", "install_cleanup", "kill_children", "start", "stop_popen",
]
