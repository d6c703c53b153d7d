"""`python3 -m engine.gui` as a user starts it: what it says on its own streams when something
outside the page goes wrong (no browser to open, a client that breaks the WebSocket protocol)."""
from __future__ import annotations

import base64
import contextlib
import os
import queue
import socket
import subprocess
import sys
import threading
import webbrowser

import pytest
from conftest import REPO

pytest.importorskip("uvicorn", reason="the GUI's extra is not installed: pip install '.[gui]'")

from engine.gui.__main__ import open_browser  # noqa: E402 - after the skip when the GUI extra is missing

WAIT_S = 60  # an upper bound against hanging, not a timing check
CONSOLE_BROWSERS = ("www-browser", "links", "elinks", "lynx", "w3m")  # webbrowser tries these too


@contextlib.contextmanager
def gui(*args: str, env: dict | None = None):
    """The server on a free port: (its address, a queue of its stderr lines, the process)."""
    with subprocess.Popen([sys.executable, "-m", "engine.gui", "--port", "0", *args],
                          cwd=str(REPO), env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                          text=True) as proc:
        assert proc.stdout is not None and proc.stderr is not None
        errors: queue.Queue = queue.Queue()
        stream = proc.stderr
        threading.Thread(target=lambda: [errors.put(line) for line in stream], daemon=True).start()
        line = proc.stdout.readline()
        try:
            assert "http://127.0.0.1:" in line, f"the GUI server did not start: {line!r}"
            yield line.split()[3], errors, proc
        finally:
            proc.terminate()
            proc.wait(timeout=30)


def test_open_browser_says_where_to_go_when_no_browser_opens(monkeypatch, capsys):
    monkeypatch.setattr(webbrowser, "open", lambda url: False)
    open_browser("http://127.0.0.1:8765/")
    assert capsys.readouterr().err == \
        "gipf-gui: no web browser could be opened here; open http://127.0.0.1:8765/ in one\n"

    def broken(url):
        raise webbrowser.Error("could not locate runnable browser")
    monkeypatch.setattr(webbrowser, "open", broken)
    open_browser("http://127.0.0.1:8765/")
    assert capsys.readouterr().err.startswith("gipf-gui: no web browser could be opened here")
    monkeypatch.setattr(webbrowser, "open", lambda url: True)
    open_browser("http://127.0.0.1:8765/")
    assert capsys.readouterr().err == ""


def test_open_on_a_machine_without_a_browser_prints_one_line(tmp_path):
    import shutil
    if any(shutil.which(name) for name in CONSOLE_BROWSERS):
        pytest.skip("a console browser is installed: webbrowser would start it")
    env = {k: v for k, v in os.environ.items() if k not in ("DISPLAY", "WAYLAND_DISPLAY")}
    env["BROWSER"] = "false"  # the only browser there is, and it fails
    with gui("--open", env=env) as (url, errors, _):
        line = errors.get(timeout=WAIT_S)
    assert line == f"gipf-gui: no web browser could be opened here; open {url} in one\n"


def _handshake(port: int) -> socket.socket:
    sock = socket.create_connection(("127.0.0.1", port), timeout=WAIT_S)
    key = base64.b64encode(os.urandom(16)).decode()
    sock.sendall((f"GET /ws HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\n"
                  f"Origin: http://127.0.0.1:{port}\r\nUpgrade: websocket\r\n"
                  f"Connection: Upgrade\r\nSec-WebSocket-Key: {key}\r\n"
                  "Sec-WebSocket-Version: 13\r\n\r\n").encode())
    head = b""
    while b"\r\n\r\n" not in head:
        head += sock.recv(4096)
    assert head.startswith(b"HTTP/1.1 101"), head[:80]
    return sock


def _masked_text_frame(payload: bytes) -> bytes:
    mask = os.urandom(4)
    body = bytes(b ^ mask[i % 4] for i, b in enumerate(payload))
    return bytes([0x81, 0x80 | len(payload)]) + mask + body


def _until_closed(sock: socket.socket) -> bytes:
    received = b""
    while chunk := sock.recv(65536):
        received += chunk
        if b"\x88\x02\x03\xef" in received:  # a close frame with code 1007 (invalid data)
            break
    return received


def test_a_text_frame_that_is_not_utf8_is_a_protocol_error_and_one_log_line():
    with gui() as (url, errors, proc):
        port = int(url.rstrip("/").rsplit(":", 1)[1])
        for _ in range(3):
            with _handshake(port) as sock:
                sock.sendall(_masked_text_frame(b"\xff\xfe not UTF-8"))
                assert b"\x88\x02\x03\xef" in _until_closed(sock)
        proc.terminate()
        proc.wait(timeout=30)
    lines = []
    while not errors.empty():
        lines.append(errors.get())
    said = [line for line in lines if "not UTF-8" in line]
    assert len(said) == 3 and all(line == said[0] for line in said), lines
    assert "WARNING" in said[0] and said[0].endswith(
        " closed a WebSocket that sent a text frame that is not UTF-8 (close code 1007, invalid "
        "data)\n")
    assert not any("Traceback" in line for line in lines), lines


def test_gipf_screenshots_takes_a_picture_and_says_a_bad_folder_in_one_line(tmp_path):
    import shutil
    if not (shutil.which("chromium") and shutil.which("chromedriver")):
        pytest.skip("no chromium/chromedriver: apt-get install chromium chromium-driver")
    pytest.importorskip("selenium", reason="selenium is not installed (the test extra)")
    command = [sys.executable, str(REPO / "scripts" / "screenshots")]
    done = subprocess.run([*command, "--out", str(tmp_path), "--only", "gui-start.png"],
                          capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    assert done.stdout == f"{tmp_path / 'gui-start.png'}\n"
    assert (tmp_path / "gui-start.png").read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    done = subprocess.run([*command, "--out", str(tmp_path / "none")], capture_output=True,
                          text=True, timeout=60)
    assert (done.returncode, done.stdout) == (1, "")
    assert done.stderr == f"gipf-screenshots: {tmp_path / 'none'} is not a folder\n"
