"""Where the files that ship with the package are: the protocol reference and the example game
records (engine/data/examples), so that installed commands name real paths, never a checkout."""
from __future__ import annotations

from pathlib import Path

PACKAGE = Path(__file__).resolve().parent
EXAMPLES = PACKAGE / "data" / "examples"
# The record each game's examples use (gipf-review --example GAME).
EXAMPLE_RECORDS = {"dvonn": "dvonn-demo.txt", "tzaar": "game2552914.txt"}


def example_record(game: str) -> Path:
    """The shipped example record of a game."""
    return EXAMPLES / EXAMPLE_RECORDS[game]


def protocol_reference() -> Path:
    """protocol.md: installed as package data; in a source checkout, the one at its root."""
    installed = PACKAGE / "data" / "protocol.md"
    return installed if installed.is_file() else PACKAGE.parent / "protocol.md"
