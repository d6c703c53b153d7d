"""Serving the protocol while commands run: read-ahead, interrupts, streamed replies.

Commands are executed strictly in order, one reply each, in the thread that calls
Session.serve.  A daemon thread reads stdin ahead of them into a queue, so that
what arrives behind a long command can stop it:

* GoGui's `# interrupt` line stops the command read before it (genmove, analyze
  and perft: a search replies with the best move found so far);
* while `analyze live` runs, any input line ends it (KataGo's kata-analyze
  convention), and the line is then executed as usual;
* SIGINT stops a running search or perft the same way; when none is running it
  ends the process cleanly (the command in progress is still answered; exit 0).

Handlers reach this through ``server.control`` (a Control): its stop flag, and
``stop_on_input``/``open_stream`` for streamed replies.  A Server used without a
session gets the plain Control: nothing more can arrive, so nothing waits for input.
"""
from __future__ import annotations

import logging
import os
import queue
import signal
import threading
from typing import Callable, Optional, TextIO

from . import core, gtp

log = logging.getLogger("engine")

QUEUE_LIMIT = 64   # batches of commands read ahead at most; a pipelining client then waits
BATCH_LIMIT = 256  # commands handed over at once (one queue operation for a pipelined burst)


class Quit(Exception):
    """Raised by the quit handler: reply, then end the session."""


class Control:
    """What a running command may ask of whoever serves it (here: nobody)."""

    def __init__(self) -> None:
        self.stop = core.StopFlag()
        self._lines: Optional[list[str]] = None

    def stop_on_input(self) -> None:
        """End this command's search when the next input line arrives."""
        self.stop.set()  # without a session no line can arrive: stop at once

    def open_stream(self) -> Callable[[str], None]:
        """Commit to success and return a function that writes one line of the reply now."""
        self._lines = []
        return self._lines.append

    def close_stream(self, last: str) -> str:
        """The reply text that ends a stream (the lines not written yet, then `last`)."""
        lines, self._lines = self._lines or [], None
        return "\n".join(lines + [last])


class LineReader:
    """readline(limit) straight on a file descriptor, with no lock and no read-ahead beyond
    one chunk: a daemon thread may block in it at exit (a BufferedReader's lock would
    make the interpreter abort there)."""

    def __init__(self, fd: int) -> None:
        self.fd = fd
        self.buf = b""
        self.eof = False

    def has_line(self) -> bool:
        """Whether the next readline returns without reading (so without blocking)."""
        return b"\n" in self.buf or self.eof

    def readline(self, limit: int = -1) -> bytes:
        while True:
            end = self.buf.find(b"\n")
            if end >= 0 and (limit < 0 or end < limit):
                line, self.buf = self.buf[:end + 1], self.buf[end + 1:]
                return line
            if 0 <= limit <= len(self.buf) or self.eof:
                cut = len(self.buf) if limit < 0 else limit
                line, self.buf = self.buf[:cut], self.buf[cut:]
                return line
            chunk = os.read(self.fd, 65536)
            if chunk:
                self.buf += chunk
            else:
                self.eof = True


class Session(Control):
    """Serves one input stream to one output stream for one server."""

    def __init__(self, server, stdin, stdout: TextIO, handle_signals: bool = False) -> None:
        super().__init__()
        self.server = server
        server.control = self
        self.stdin, self.stdout = stdin, stdout
        self.handle_signals = handle_signals
        self.queue: queue.Queue = queue.Queue(QUEUE_LIMIT)
        # The reader, the signal thread and the command loop share a few plain attributes,
        # each written by one side only and read by the other (single reads and writes are
        # atomic in CPython); where two sides race, each writes first and reads second, so
        # at least one of them sees the other (no lock on the per-line path).
        self.write_lock = threading.Lock()
        self.lines_read = 0         # every line, blank ones too (reader)
        self.last_command = 0       # line number of the last command read (reader)
        self.interrupted = 0        # line number of the command `# interrupt` aimed at (reader)
        self.current: Optional[int] = None  # line number of the command running (loop)
        self.live = False           # the running command ends at the next line (loop)
        self.eof = False
        self.closing = False        # SIGINT with nothing to stop, or the output is gone
        self.dead = False           # the output is gone
        self.cid: Optional[str] = None
        self.streaming = False

    # --- what handlers call -------------------------------------------------------------
    def stop_on_input(self) -> None:
        self.live = True  # first: a line read from now on stops it ...
        if self.eof or (self.current is not None and self.lines_read > self.current):
            self.stop.set()  # ... and one read already does too

    def open_stream(self) -> Callable[[str], None]:
        self._write(("=" + (self.cid or "")) + "\n")
        self.streaming = True
        return self._emit

    def close_stream(self, last: str) -> str:
        return last

    def _emit(self, line: str) -> None:
        self._write(line.rstrip() + "\n")

    # --- the loop ---------------------------------------------------------------------------
    def serve(self) -> None:
        if self.handle_signals:
            # Only the signal thread ever sees SIGINT: no KeyboardInterrupt can land in the
            # middle of a command, a cffi callback or a reply.  Threads inherit the mask.
            signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGINT})
            threading.Thread(target=self._signals, name="sigint", daemon=True).start()
        stream = self.stdin
        if hasattr(stream, "fileno") and not hasattr(stream, "getvalue"):
            try:
                stream = LineReader(stream.fileno())
            except (OSError, ValueError):
                pass
        threading.Thread(target=self._read, args=(stream,), name="reader", daemon=True).start()
        prepare = getattr(self.server, "prepare", None)
        if prepare is not None:  # the C calls release the GIL: this costs start-up nothing
            threading.Thread(target=prepare, name="prepare", daemon=True).start()
        try:
            self._execute()
        finally:
            close = getattr(self.server, "close", None)
            if close is not None:
                close()

    def _read(self, stream) -> None:
        # Commands go over in batches: what was read in one go is handed over at once, so a
        # pipelining client costs one queue operation per burst, not per command.
        in_memory = hasattr(stream, "getvalue")  # io.BytesIO: reading never blocks
        more_ready = getattr(stream, "has_line", lambda: in_memory)
        batch: list = []
        try:
            for event in gtp.read_events(stream):
                self.lines_read += 1
                if self.live:
                    self.stop.set()
                if event is gtp.INTERRUPT:
                    self.interrupted = self.last_command  # if it has not started yet
                    if self.current is not None:          # the one running now
                        self.stop.set()
                elif isinstance(event, gtp.Command):
                    self.last_command = self.lines_read
                    batch.append((self.lines_read, event))
                if batch and (len(batch) >= BATCH_LIMIT or not more_ready()):
                    self.queue.put(batch)
                    batch = []
        except (OSError, ValueError) as e:  # stdin closed under us: as end of input
            log.debug("input ended: %s", e)
        finally:
            if batch:
                self.queue.put(batch)
            self.eof = True
            if self.live:
                self.stop.set()
            self.queue.put(None)

    def _signals(self) -> None:
        while True:
            signal.sigwait({signal.SIGINT})
            if self.current is not None and self.stop.running:
                self.stop.set()
                continue
            self.closing = True
            self.stop.set()
            try:
                self.queue.put_nowait(None)  # wake the loop if it waits for input
            except queue.Full:
                pass  # then it is busy and sees `closing` after this command

    def _execute(self) -> None:
        while not self.closing:
            batch = self.queue.get()
            if batch is None:
                return
            for line_no, cmd in batch:
                if self.closing or not self._run(line_no, cmd):
                    return

    def _run(self, line_no: int, cmd: gtp.Command) -> bool:
        """Execute one command and write its reply; False when the session must end."""
        self.current = line_no  # first: an interrupt from now on stops it ...
        self.stop.clear()
        if line_no == self.interrupted:  # ... and one read already does too
            self.stop.set()
        self.cid, self.streaming = cmd.id, False
        try:
            ok, text = self.server.handle(cmd)
        except Quit:
            self._write(gtp.format_reply(cmd.id, True, ""))
            return False
        except Exception as e:  # a bug must not kill a long-running engine
            log.exception("internal error in %r", cmd.name)
            ok, text = False, f"internal error: {type(e).__name__}"
        finally:
            self.current = None
            self.live = False
        if self.streaming:  # the head went out already: only the end is left
            self._write((text.rstrip() + "\n" if ok else "") + "\n")
        else:
            self._write(gtp.format_reply(cmd.id, ok, text))
        return True

    def _write(self, text: str) -> None:
        if self.dead:
            return
        with self.write_lock:
            try:
                self.stdout.write(text)
                self.stdout.flush()
            except (BrokenPipeError, ValueError):  # the client went away: nothing left to say
                self.dead = self.closing = True
                self.stop.set()
                _silence_stdout(self.stdout)


def _silence_stdout(stdout) -> None:
    """Point a dead stdout at /dev/null so the exit flush does not complain."""
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, stdout.fileno())
        os.close(devnull)
    except (OSError, ValueError, AttributeError):
        pass
