"""What the engine says on stderr, never on stdout (replies only): search and book lines,
and log records, through logging configured when the first record is due, so that a session
that needs no game (`quit` alone) never imports logging."""
from __future__ import annotations

import sys
from typing import TYPE_CHECKING, Any, Optional

if TYPE_CHECKING:
    import logging

_log_config: Optional[dict[str, Any]] = None  # logging.basicConfig's arguments, until applied


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


def log_later(**config: Any) -> None:
    """Configure logging (basicConfig's arguments) when the first record is due."""
    global _log_config
    _log_config = config


def logger(name: str = "engine") -> logging.Logger:
    """The named logger, with the configuration log_later gave applied first."""
    global _log_config
    import logging
    if _log_config is not None:
        config, _log_config = _log_config, None
        logging.raiseExceptions = False  # a failing stderr (2>/dev/full) drops log lines quietly
        logging.basicConfig(**config)
    return logging.getLogger(name)
