"""`python -m engine` / `gipf-engine`: serve the protocol on stdin/stdout."""
from __future__ import annotations

import os
import sys

from . import ENGINE_NAME, __version__


def seed_value(text: str) -> int:
    import argparse

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


DEFAULT_SEED = 0
DEFAULT_LOG_LEVEL = "warning"


def make_parser():
    import argparse

    class Parser(argparse.ArgumentParser):
        """The description and epilog name the games and the example records: read only when
        the help is printed, so that serving the protocol imports neither."""

        def format_help(self) -> str:
            from .examples import EXAMPLES, protocol_reference
            from .games import titles
            self.description = (f"{ENGINE_NAME} {__version__}: {titles()} engine speaking a\n"
                                "GTP-style protocol on stdin/stdout.")
            self.epilog = (f"the protocol reference:\n  {protocol_reference()}\n"
                           f"example game records (--examples prints the folder):\n  {EXAMPLES}")
            return super().format_help()

    parser = Parser(prog="gipf-engine", formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--seed", type=seed_value, default=DEFAULT_SEED,
                        help=f"seed for reproducible play (default {DEFAULT_SEED})")
    parser.add_argument("--log-level", default=DEFAULT_LOG_LEVEL,
                        choices=["debug", "info", "warning", "error"],
                        help=f"diagnostics on stderr (default {DEFAULT_LOG_LEVEL})")
    parser.add_argument("--game-module", action="append", default=[], metavar="MODULE",
                        help="import MODULE first: an importable module whose import registers "
                             "more games (engine/games register); may be repeated")
    parser.add_argument("--examples", action="store_true",
                        help="print the folder of the example game records and exit")
    parser.add_argument("--version", action="version", version=f"{ENGINE_NAME} {__version__}")
    return parser


def main(argv=None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    if not argv:  # nothing to parse: argparse's imports would cost more than the rest of start-up
        return serve(DEFAULT_SEED, DEFAULT_LOG_LEVEL)
    parser = make_parser()
    args = parser.parse_args(argv)
    if args.examples:
        from .examples import EXAMPLES
        print(EXAMPLES)
        return 0
    for module in args.game_module:
        error = load_game_module(module)
        if error:
            parser.error(error)
    return serve(args.seed, args.log_level)


def say_if_no_core() -> None:
    """One line on stderr at start when the compiled core cannot be loaded.  The extension
    alone is loaded to know (its bindings, engine.core, come with the first command that
    needs them); only when it fails are the bindings imported, to say why."""
    try:
        from . import _core  # type: ignore[attr-defined]  # noqa: F401 - the module cffi builds
    except Exception:  # noqa: BLE001 - any import failure means "no core", as in engine.core
        from . import core
        from .protocol.diagnostics import logger
        logger().warning("the compiled core is unavailable, the Python player plays: %s",
                         core.UNAVAILABLE_REASON)


def serve(seed: int, log_level: str) -> int:
    """Serve the protocol on stdin/stdout until quit or the end of input."""
    if sys.stderr is None:  # started with stderr closed: diagnostics go nowhere, never to stdout
        sys.stderr = _null_stderr()
    if sys.stdin is None or sys.stdout is None:
        return 0  # started with stdin or stdout closed: no command can arrive or be answered
    try:
        from .protocol.diagnostics import log_later
        from .protocol.server import main_loop  # the core and the games: with the first game command
        log_later(stream=sys.stderr, level=log_level.upper(),
                  format="%(name)s %(levelname)s: %(message)s")
        say_if_no_core()
        main_loop(seed=seed)
    except KeyboardInterrupt:
        pass
    except BrokenPipeError:  # the client went away; nothing left to say
        pass
    return 0


if __name__ == "__main__":
    sys.exit(main())
