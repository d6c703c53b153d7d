"""The stand-in LittleGolem site over HTTP (http.server on 127.0.0.1 in a thread), with the
faults tests inject per request: an error status (before or after the request is applied), a
slow answer, a lost session, another body, a reset connection, a body cut short of its
Content-Length or cut with a Content-Length to match, a refusal page, a record one move
behind or of another game, a list that lags behind a taken move."""
from __future__ import annotations

import http.cookies
import http.server
import re
import socket
import struct
import sys
import threading
import time
import urllib.parse
from typing import Optional

from .site import LOGIN_PAGE, OTHER_PAGE, PASSWORD, USER, WORDY_PAGE, StandIn


class Handler(http.server.BaseHTTPRequestHandler):
    site: StandIn
    authorised = False
    protocol_version = "HTTP/1.0"

    def log_message(self, *args):  # quiet
        pass

    def answer(self, status: int, text: str, kind="text/html", cookie=None, cut=None) -> None:
        """cut "short": half the body under the whole body's Content-Length; "cut": half the
        body under a Content-Length to match."""
        body = text.encode()
        sent = body if cut is None else body[:len(body) // 2]
        self.send_response(status)
        self.send_header("Content-Type", f"{kind}; charset=utf-8")
        self.send_header("Content-Length", str(len(sent) if cut == "cut" else len(body)))
        if cookie:
            self.send_header("Set-Cookie", cookie)
        self.end_headers()
        self.wfile.write(sent)
        if cut is not None:
            self.wfile.flush()
            self.close_connection = True

    def reset(self) -> None:
        self.connection.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))
        self.close_connection = True
        self.connection.close()

    def logged_in(self) -> bool:
        jar = http.cookies.SimpleCookie(self.headers.get("Cookie", ""))
        return self.site.token is not None and "login2" in jar \
            and jar["login2"].value == self.site.token

    def handle_one(self, method: str) -> None:
        site = self.site
        with site.lock:
            site.busy += 1
        try:
            self._handle(method)
        finally:
            with site.lock:
                site.busy -= 1

    def _handle(self, method: str) -> None:
        site = self.site
        url = urllib.parse.urlsplit(self.path)
        path = url.path
        length = int(self.headers.get("Content-Length") or 0)
        form = urllib.parse.parse_qs(self.rfile.read(length).decode()) if length else {}
        site.requests.append((method, path))
        about = re.fullmatch(r"/servlet/sgf/(\d+)/.*", path)
        gid = about.group(1) if about else (form.get("sendgame") or [""])[0]
        fault = site.fault_for(method, path, int(gid) if gid.isdigit() else None) or ()
        if method == "POST" and path == "/jsp/game/game.jsp":
            site.tries.append(int(gid) if gid.isdigit() else None)
        kind = fault[0] if fault else None
        self.authorised = self.logged_in()  # when the request came, as a site checks it
        if kind == "status":
            return self.answer(fault[1], "<html>Internal error</html>")
        if kind == "sleep":
            time.sleep(fault[1])
        if kind == "logout":
            site.token = None
            self.authorised = False
        if kind == "body":
            return self.answer(200, fault[1], "text/plain")
        if kind == "reset":
            return self.reset()
        status, text, content, cookie = self._route(method, path, url.query, form, fault)
        if status == 0:
            return None
        if kind == "reset after":
            return self.reset()
        if kind == "status after":  # applied, then an error status
            return self.answer(fault[1], "<html>Internal error</html>")
        if kind == "wrong after":
            text = OTHER_PAGE
        if kind == "wordy after":
            text = WORDY_PAGE
        cut = {"short": "short", "cut": "cut"}.get(kind or "")
        return self.answer(status, text, content, cookie, cut)

    def _route(self, method, path, query, form, fault) -> tuple[int, str, str, Optional[str]]:
        site = self.site
        kind = fault[0] if fault else None
        if path == "/jsp/login/":
            if method == "POST" and form.get("login") == [USER] \
                    and form.get("password") == [PASSWORD]:
                site.logins += 1
                site.token = f"t{site.logins}"
                cookie = f"login2={site.token}; Path=/"
                if site.login_redirect:
                    self.send_response(303)
                    self.send_header("Location", "/jsp/game/")
                    self.send_header("Set-Cookie", cookie)
                    self.send_header("Content-Length", "0")
                    self.end_headers()
                    return 0, "", "", None
                return 200, "<html>Welcome</html>", "text/html", cookie
            if method == "POST":
                useless = "login2=; Path=/" if site.cookie_on_failure else None
                return 200, ("<html><body><p>Wrong login or password.</p>"
                             + LOGIN_PAGE[12:]), "text/html", useless
            return 200, LOGIN_PAGE, "text/html", None
        match = re.fullmatch(r"/servlet/sgf/(\d+)/game(\d*)\.txt", path)
        if match and method == "GET":
            return self._record(int(match.group(1)), match.group(2), fault)
        if not self.authorised:
            return site.logged_out_status, LOGIN_PAGE, "text/html", None
        with site.lock:
            if path == "/jsp/game/" and method == "GET":
                return 200, site.page(lag=kind == "lag"), "text/html", None
            if path == "/jsp/invitation/index.jsp" and method == "GET":
                return 200, site.invitations(), "text/html", None
            if path == "/Invitation.action" and method == "GET":
                status, text = site.answer_invitation(urllib.parse.parse_qs(query, True))
                return status, text, "text/html", None
            if path == "/jsp/message/new.jsp" and method == "POST":
                site.messages.append(tuple((form.get(k) or [""])[0]
                                           for k in ("plto", "messagetitle", "message")))
                return 200, "<html><body>Message sent</body></html>", "text/html", None
        if path == "/jsp/game/game.jsp" and method == "POST":
            status, text = site.move(form, refuse=kind == "refuse")
            return status, text, "text/html", None
        return 404, "<html>not found</html>", "text/html", None

    def _record(self, gid: int, form: str, fault) -> tuple[int, str, str, Optional[str]]:
        site = self.site
        site_game = site.games.get(gid)
        kind = fault[0] if fault else None
        if kind == "other":  # another game's record, whatever the address
            with site.lock:
                return 200, site.games[fault[1]].text(), "text/plain", None
        wanted = "tzaar" if form else "dvonn"
        if site_game is None or (form and form != str(gid)):
            return 404, "no such game", "text/plain", None
        if site_game.kind == "hex" and wanted == "tzaar" or site_game.kind == wanted \
                or site_game.malformed is not None:
            with site.lock:
                text = site_game.text(behind=1 if kind == "behind" else 0)
            return 200, text, "text/plain", None
        return site.other_form_status, "no such record", "text/plain", None

    def do_GET(self):
        self.handle_one("GET")

    def do_POST(self):
        self.handle_one("POST")


class Server(http.server.ThreadingHTTPServer):
    daemon_threads = True

    def handle_error(self, request, client_address):
        if not isinstance(sys.exc_info()[1], (ConnectionError, OSError)):  # a client that gave up
            super().handle_error(request, client_address)


def serve(port: int = 0) -> tuple[StandIn, Server]:
    """A stand-in site on 127.0.0.1 (port 0: any free port), served by a daemon thread."""
    stand_in = StandIn()
    handler = type("BoundHandler", (Handler,), {"site": stand_in})
    server = Server(("127.0.0.1", port), handler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    stand_in.url = f"http://127.0.0.1:{server.server_address[1]}"
    return stand_in, server
