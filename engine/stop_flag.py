"""The flag that ends a running search or perft early, set from any thread or a signal handler.

It knows nothing of the compiled core: engine.core gives it an int32 cell the C search polls
the first time the flag is passed to it (`core_cell`), and set/clear keep that cell in step.
So the serving layer (engine.protocol.serving) holds stop flags without importing cffi."""
from __future__ import annotations

from typing import Any


class StopFlag:
    """A search still returns its best move when stopped, a perft raises core.Interrupted.
    ``running`` counts the stoppable calls in progress that use this flag."""

    def __init__(self) -> None:
        self._set = False
        self.running = 0
        self.core_cell: Any = None  # the compiled core's copy (an ffi int32_t *), or None

    def set(self) -> None:
        cell = self.core_cell
        if cell is not None:  # the cell first: clear() looks at _set
            cell[0] = 1
        self._set = True

    def clear(self) -> None:
        if self._set:  # (cheap when not set: this runs before every command)
            self._set = False
            cell = self.core_cell
            if cell is not None:
                cell[0] = 0

    def is_set(self) -> bool:
        return self._set
