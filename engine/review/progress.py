"""A one-line progress bar on stderr, drawn only when stderr is a terminal."""
from __future__ import annotations

import sys
import threading
from typing import TextIO


class ProgressBar:
    def __init__(self, label: str, stream: TextIO = sys.stderr, width: int = 30) -> None:
        self.label, self.stream, self.width = label, stream, width
        self.active = stream.isatty()
        self.lock = threading.Lock()

    def __call__(self, done: int, total: int) -> None:
        if not self.active or total <= 0:
            return
        filled = self.width * done // total
        bar = "#" * filled + "." * (self.width - filled)
        with self.lock:
            self.stream.write(f"\r{self.label} [{bar}] {done}/{total} positions")
            self.stream.flush()

    def close(self) -> None:
        """Erase the bar so later messages start on a clean line."""
        if self.active:
            with self.lock:
                self.stream.write("\r" + " " * (len(self.label) + self.width + 20) + "\r")
                self.stream.flush()
