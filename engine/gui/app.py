"""The web server: one page, its static assets, and a WebSocket per browser session.

Starlette serves; each accepted WebSocket gets a Session with its own engine process, killed when
the socket closes. Only loopback host names are served (a DNS-rebinding page cannot reach us), a
WebSocket must come from this server's own page, and sessions are limited in number.

The Origin check compares the Origin header with the Host header the browser sent: a browser
sets both itself (a page cannot forge them), and the Host was already checked to be a loopback
name, so only a page served by a loopback server on this port can open a session. A program that
is not a browser can send any headers it likes; that is why the server listens on loopback only.
The page itself arrives with the start of a game drawn in it, so that its first paint is a board.
"""
from __future__ import annotations

import asyncio
import json
import logging
from pathlib import Path
from typing import Optional

import anyio
from starlette.applications import Starlette
from starlette.middleware import Middleware
from starlette.middleware.trustedhost import TrustedHostMiddleware
from starlette.responses import HTMLResponse
from starlette.routing import Mount, Route, WebSocketRoute
from starlette.staticfiles import StaticFiles
from starlette.websockets import WebSocket

from ..client import default_engine_argv
from .messages import MAX_PENDING_REQUESTS, BadRequest, parse_request
from .session import Session

log = logging.getLogger("engine.gui")

STATIC = Path(__file__).resolve().parent / "static"
LOOPBACK_HOSTS = ["127.0.0.1", "localhost"]
SECURITY_HEADERS = {
    "Content-Security-Policy": "default-src 'self'; img-src 'self' data:; frame-ancestors 'none'",
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "no-referrer",
}
FIRST_STATE_MARK = "{/*first state*/}"
POLICY_VIOLATION = 1008  # WebSocket close codes (RFC 6455)
TRY_AGAIN_LATER = 1013


class OneLineProtocolErrors(logging.Filter):
    """uvicorn logs a text frame that is not UTF-8 with a traceback, then closes the socket
    with 1007 (a protocol error): a client's fault, said in one line."""

    def filter(self, record: logging.LogRecord) -> bool:
        if record.exc_info and str(record.msg).startswith("Invalid UTF-8"):
            record.msg = ("closed a WebSocket that sent a text frame that is not UTF-8 "
                          "(close code 1007, invalid data)")
            record.args = None
            record.exc_info = None
            record.exc_text = None
            record.levelno, record.levelname = logging.WARNING, "WARNING"
        return True


def quiet_protocol_errors() -> None:
    """Once per process, however many apps are made (the filter is the logger's)."""
    server_log = logging.getLogger("uvicorn.error")
    if not any(isinstance(f, OneLineProtocolErrors) for f in server_log.filters):
        server_log.addFilter(OneLineProtocolErrors())


def create_app(engine_argv: Optional[list[str]] = None, engine_env: Optional[dict] = None,
               max_sessions: int = 4, allowed_hosts: Optional[list[str]] = None) -> Starlette:
    if engine_argv is None:
        engine_argv, engine_env = default_engine_argv()
    quiet_protocol_errors()
    sessions: set[Session] = set()
    cache: dict = {}
    first_state_lock = asyncio.Lock()

    async def index(request):
        async with first_state_lock:
            if "page" not in cache:  # the first state is asked once, even when it failed
                state = await _first_state(engine_argv, engine_env)
                # JSON inside <script>: "</" must not end the element
                data = json.dumps(state).replace("</", "<\\/")
                page = (STATIC / "index.html").read_text(encoding="utf-8")
                cache["page"] = page.replace(FIRST_STATE_MARK, data)
        return HTMLResponse(cache["page"], headers=SECURITY_HEADERS)

    async def socket(websocket: WebSocket) -> None:
        host = websocket.headers.get("host", "")
        origin = websocket.headers.get("origin")
        if origin not in (f"http://{host}", f"https://{host}"):
            log.warning("refused a WebSocket from origin %r (host %r)", origin, host)
            await websocket.close(code=POLICY_VIOLATION)
            return
        await websocket.accept()
        if len(sessions) >= max_sessions:
            await websocket.send_json({"type": "fatal", "message":
                                       f"too many sessions: this server allows {max_sessions}; "
                                       "close another tab and reload"})
            await websocket.close(code=TRY_AGAIN_LATER)
            return
        outbox: asyncio.Queue = asyncio.Queue()
        session = Session(engine_argv, engine_env, outbox.put_nowait)
        sessions.add(session)
        runner = asyncio.create_task(session.run())
        sender = asyncio.create_task(_forward(outbox, websocket))
        try:
            await _receive(websocket, session, runner)
        finally:
            with anyio.CancelScope(shield=True):  # the engine must go even when we are cancelled
                session.closing = True
                await session.requests.put(None)
                while not runner.done():  # asyncio.wait_for before 3.12 can swallow one cancel
                    runner.cancel()
                    await asyncio.wait({runner}, timeout=1)
                await session.close()
                sender.cancel()
                await asyncio.gather(sender, return_exceptions=True)
                sessions.discard(session)

    app = Starlette(
        routes=[Route("/", index), WebSocketRoute("/ws", socket),
                Mount("/static", StaticFiles(directory=STATIC), name="static")],
        middleware=[Middleware(TrustedHostMiddleware,
                               allowed_hosts=allowed_hosts or LOOPBACK_HOSTS)])
    app.state.sessions = sessions
    return app


async def _first_state(engine_argv: list[str], engine_env: Optional[dict]) -> dict:
    """The state a new session starts with, asked once of an engine of its own; {} when that
    engine cannot say (the page then waits for its session's first state)."""
    messages: list[dict] = []
    session = Session(engine_argv, engine_env, messages.append)
    try:
        await session.begin()
    except Exception as e:  # noqa: BLE001 - the page still works without it
        log.warning("no first state for the page: %s", e)
    finally:
        await session.close()
    return next((m for m in messages if m["type"] == "state"), {})


async def _forward(outbox: asyncio.Queue, websocket: WebSocket) -> None:
    while True:
        message = await outbox.get()
        try:
            await websocket.send_text(json.dumps(message))
        except Exception:  # noqa: BLE001 - the page went away: the receiver ends the session
            return


async def _receive(websocket: WebSocket, session: Session, runner: asyncio.Task) -> None:
    dropped = 0  # requests refused in a row because the queue was full
    while not runner.done():
        receiving = asyncio.ensure_future(websocket.receive())
        done, _ = await asyncio.wait({receiving, runner}, return_when=asyncio.FIRST_COMPLETED)
        if receiving not in done:
            receiving.cancel()
            await websocket.close()
            return
        message = receiving.result()
        if message["type"] == "websocket.disconnect":
            return
        raw = message.get("text")
        if raw is None:
            session.send({"type": "error", "message": "requests are JSON text"})
            continue
        try:
            request = parse_request(raw)
        except BadRequest as e:
            session.send({"type": "error", "message": f"bad request: {e}"})
            continue
        if request["type"] == "stop":
            session.interrupt()  # now, not after the search it is meant to stop
        elif request["type"] == "review_cancel":
            session.review.cancel()  # likewise: the request queue may wait behind a search
        elif session.requests.qsize() >= MAX_PENDING_REQUESTS:
            # refused, not kept: a flood costs neither memory nor a backlog, and the session
            # goes on with the requests it has; said once per flood, not once per request
            dropped += 1
            if dropped == 1:
                session.send({"type": "error", "message": "too many requests: at most "
                              f"{MAX_PENDING_REQUESTS} wait at a time; later ones are dropped"})
        else:
            dropped = 0
            await session.requests.put(request)

