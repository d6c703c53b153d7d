"""`python -m engine` / `gipf-engine`: serve the protocol on stdin/stdout."""
from __future__ import annotations

import argparse
import logging
import os
import sys

from . import ENGINE_NAME, __version__


def seed_value(text: str) -> int:
    from .protocol.arguments import CommandError, whole_number
    from .splitmix64 import MASK64
    try:
        return whole_number(text, "seed", 0, MASK64)
    except CommandError:
        raise argparse.ArgumentTypeError(f"a whole number from 0 to {MASK64}") from None


def load_game_module(module: str) -> str:
    """Import a module that registers games; '' or why it could not."""
    from .games import load_module
    try:
        load_module(module)
    except Exception as e:  # noqa: BLE001 - any failure of a module's import is reported, not raised
        return f"--game-module {module}: {type(e).__name__}: {e}"
    return ""


def _null_stderr():
    """/dev/null as stderr, on descriptor 2 if that is free: otherwise the next file the
    engine opens would get 2 and receive whatever writes to stderr (the C core's too)."""
    fd = os.open(os.devnull, os.O_WRONLY)
    try:
        os.fstat(2)
    except OSError:
        os.dup2(fd, 2)
        os.close(fd)
        fd = 2
    return open(fd, "w", encoding="utf-8", errors="backslashreplace")


class _Parser(argparse.ArgumentParser):
    """The description and epilog name the games and the example records: read only when the
    help is printed, so that serving the protocol imports neither."""

    def format_help(self) -> str:
        from .examples import EXAMPLES, protocol_reference
        from .games import titles
        self.description = (f"{ENGINE_NAME} {__version__}: {titles()} engine speaking a\n"
                            "GTP-style protocol on stdin/stdout.")
        self.epilog = (f"the protocol reference:\n  {protocol_reference()}\n"
                       f"example game records (--examples prints the folder):\n  {EXAMPLES}")
        return super().format_help()


def main(argv=None) -> int:
    parser = _Parser(prog="gipf-engine", formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--seed", type=seed_value, default=0,
                        help="seed for reproducible play (default 0)")
    parser.add_argument("--log-level", default="warning",
                        choices=["debug", "info", "warning", "error"],
                        help="diagnostics on stderr (default warning)")
    parser.add_argument("--game-module", action="append", default=[], metavar="MODULE",
                        help="import MODULE first: an importable module whose import registers "
                             "more games (engine/games register); may be repeated")
    parser.add_argument("--examples", action="store_true",
                        help="print the folder of the example game records and exit")
    parser.add_argument("--version", action="version", version=f"{ENGINE_NAME} {__version__}")
    args = parser.parse_args(argv)
    if args.examples:
        from .examples import EXAMPLES
        print(EXAMPLES)
        return 0
    for module in args.game_module:
        error = load_game_module(module)
        if error:
            parser.error(error)
    if sys.stderr is None:  # started with stderr closed: diagnostics go nowhere, never to stdout
        sys.stderr = _null_stderr()
    logging.raiseExceptions = False  # a failing stderr (2>/dev/full) drops log lines quietly
    logging.basicConfig(stream=sys.stderr, level=args.log_level.upper(),
                        format="%(name)s %(levelname)s: %(message)s")
    if sys.stdin is None or sys.stdout is None:
        return 0  # started with stdin or stdout closed: no command can arrive or be answered
    try:
        from . import core
        from .protocol.server import main_loop
        if not core.AVAILABLE:
            logging.getLogger("engine").warning(
                "the compiled core is unavailable, the Python player plays: %s",
                core.UNAVAILABLE_REASON)
        main_loop(seed=args.seed)
    except KeyboardInterrupt:
        pass
    except BrokenPipeError:  # the client went away; nothing left to say
        pass
    return 0


if __name__ == "__main__":
    sys.exit(main())
