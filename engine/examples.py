"""Where the files that ship with the package are: the protocol reference and the example game
records (engine/data/examples), so that installed commands name real paths, never a checkout."""
from __future__ import annotations

from pathlib import Path

from .registry import SPECS

PACKAGE = Path(__file__).resolve().parent
EXAMPLES = PACKAGE / "data" / "examples"
def example_records() -> dict[str, Path]:
    """Each registered game's shipped example record (gipf-review --example GAME), by name."""
    return {name: EXAMPLES / spec.example_record for name, spec in SPECS.items() if spec.example_record}


def protocol_reference() -> Path:
    """protocol.md: installed as package data; in a source checkout, the one at its root."""
    installed = PACKAGE / "data" / "protocol.md"
    return installed if installed.is_file() else PACKAGE.parent / "protocol.md"
