"""What a client of the engine may have to catch."""
from __future__ import annotations


class EngineError(RuntimeError):
    """The engine refused a command, went away, or could not be started."""


class EngineRefused(EngineError):
    """A '?' reply; the message is its text (with the command, from EngineProcess.ask)."""


class EngineDied(EngineError):
    """The engine ended, closed its output, or wrote something that is not a reply."""


class EngineTimeout(EngineDied):
    """No reply within the time limit; the engine was stopped (its replies are out of step)."""
