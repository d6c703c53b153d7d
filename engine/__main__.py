"""`python -m engine` / `gipf-engine`: serve the protocol on stdin/stdout."""
from __future__ import annotations

import argparse
import logging
import sys

from . import ENGINE_NAME, __version__


def seed_value(text: str) -> int:
    if not (text.isascii() and text.isdigit()) or int(text) >= 1 << 64:
        raise argparse.ArgumentTypeError("a whole number from 0 to 18446744073709551615")
    return int(text)


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(
        prog="gipf-engine",
        description=f"{ENGINE_NAME} {__version__}: DVONN and TZAAR engine speaking a "
                    "GTP-style protocol on stdin/stdout (see protocol.md).")
    parser.add_argument("--seed", type=seed_value, default=0,
                        help="seed for reproducible play (default 0)")
    parser.add_argument("--log-level", default="warning",
                        choices=["debug", "info", "warning", "error"],
                        help="diagnostics on stderr (default warning)")
    parser.add_argument("--version", action="version", version=f"{ENGINE_NAME} {__version__}")
    args = parser.parse_args(argv)
    logging.basicConfig(stream=sys.stderr, level=args.log_level.upper(),
                        format="%(name)s %(levelname)s: %(message)s")
    try:
        from .server import main_loop
        main_loop(seed=args.seed)
    except KeyboardInterrupt:
        pass
    except BrokenPipeError:  # the client went away; nothing left to say
        pass
    return 0


if __name__ == "__main__":
    sys.exit(main())
