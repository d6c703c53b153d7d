"""`python3 -m engine.gui` / `gipf-gui`: the reference web GUI on 127.0.0.1."""
from __future__ import annotations

import argparse
import logging
import shlex
import socket
import sys
import threading
import webbrowser

DEFAULT_PORT = 8765


def whole_number_from(low: int, high: int):
    """An argparse type: the engine's one whole-number reader, its message as argparse's."""
    def parse(text: str) -> int:
        from ..protocol.arguments import CommandError, whole_number
        try:
            return whole_number(text, "number", low, high)
        except CommandError:
            raise argparse.ArgumentTypeError(f"a whole number from {low} to {high}") from None
    return parse


def open_browser(url: str) -> None:
    """--open: the page in the user's browser, or one line saying where to point one."""
    try:
        opened = webbrowser.open(url)
    except webbrowser.Error:
        opened = False
    if not opened:
        print(f"gipf-gui: no web browser could be opened here; open {url} in one",
              file=sys.stderr, flush=True)


def main(argv=None) -> int:
    from ..games import titles
    parser = argparse.ArgumentParser(
        prog="gipf-gui",
        description=f"Play and analyse {titles()} in a browser against the engine. "
                    "Serves on 127.0.0.1 only; each browser tab gets its own engine process.")
    parser.add_argument("--port", type=whole_number_from(0, 65535), default=DEFAULT_PORT,
                        help=f"port on 127.0.0.1 (default {DEFAULT_PORT}; 0 = any free port)")
    parser.add_argument("--open", action="store_true", help="open the page in a web browser")
    parser.add_argument("--engine", metavar="CMD",
                        help="engine command (default: this package's engine, "
                             "python3 -m engine)")
    parser.add_argument("--max-sessions", type=whole_number_from(1, 64), default=4,
                        help="browser sessions (engine processes) at once (default 4)")
    parser.add_argument("--log-level", default="warning",
                        choices=["debug", "info", "warning", "error"],
                        help="diagnostics on stderr (default warning)")
    args = parser.parse_args(argv)
    logging.basicConfig(stream=sys.stderr, level=args.log_level.upper(),
                        format="%(name)s %(levelname)s: %(message)s")
    try:
        import uvicorn

        from .app import create_app
        from .messages import WS_MAX_BYTES
    except ImportError as e:
        print(f"gipf-gui: the GUI needs its extra ({e.name} is missing): "
              "python3 -m pip install 'gipf-engine[gui]' (or '.[gui]' in a checkout)",
              file=sys.stderr)
        return 1
    engine_argv = shlex.split(args.engine) if args.engine else None
    sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    try:
        sock.bind(("127.0.0.1", args.port))  # loopback only: never reachable from the network
        sock.listen(128)  # the address printed below takes connections at once
    except OSError as e:
        print(f"gipf-gui: cannot listen on 127.0.0.1:{args.port}: {e.strerror}", file=sys.stderr)
        return 1
    url = f"http://127.0.0.1:{sock.getsockname()[1]}/"
    app = create_app(engine_argv, max_sessions=args.max_sessions)
    config = uvicorn.Config(app, log_level=args.log_level, ws_max_size=WS_MAX_BYTES,
                            ws="websockets-sansio", http="h11", lifespan="off")
    server = uvicorn.Server(config)
    print(f"Gipfbot GUI on {url} (Ctrl-C stops it)", flush=True)
    if args.open:
        threading.Timer(0.5, open_browser, [url]).start()
    try:
        server.run(sockets=[sock])
    except KeyboardInterrupt:
        pass
    return 0


if __name__ == "__main__":
    sys.exit(main())
