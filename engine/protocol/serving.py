"""Serving the protocol while commands run: read-ahead, interrupts, streamed replies.

Commands are executed strictly in order, one reply each, in the thread that calls
Session.serve.  While it waits for input, that thread reads the input itself (a
client sending one line at a time then costs no hand-over between threads).  While
a search or perft runs (a stoppable call of the session's stop flag), a watcher
thread reads ahead of it into a queue instead, so that what arrives behind it can
stop it:

* GoGui's `# interrupt` line stops the command read just before it, exactly that
  one: at once if it is running, as soon as it starts if it is still queued
  (genmove, analyze and perft: a search replies with the best move found so far);
  every interrupt read ahead is kept, however many commands wait behind the running one;
* while `analyze live` runs, any input line ends it (KataGo's kata-analyze
  convention), and the line is then executed as usual;
* SIGINT stops a running search or perft the same way; when none is running it
  ends the process cleanly (the command in progress is still answered; exit 0);
* when the output breaks (a write fails, or the pipe is left with no reader, which
  the reading thread sees while it waits), nobody can hear a reply: the running
  command is stopped and the session ends quietly.  The end of the input alone
  stops nothing: every command read is still answered, as protocol.md 2.1 says.

Exactly one of the two threads reads the input at any time, from one shared buffer
(LineReader), and the watcher hands it back only between lines, after what it read
is queued: the loop serves the queue first, so nothing read ahead is lost, and
`quit` or the end of input behind a long command is seen after it.

Handlers reach this through ``server.control`` (a Control): its stop flag, and
``stop_on_input``/``open_stream`` for streamed replies.  A Server used without a
session gets the plain Control: nothing more can arrive, so nothing waits for input.
"""
from __future__ import annotations

import os
import select
import signal
import threading
from collections import deque
from typing import Callable, Iterator, Optional, TextIO

from ..stop_flag import StopFlag
from . import gtp
from .diagnostics import logger

QUEUE_LIMIT = 16384  # commands read ahead of a search at most; a pipelining client then waits
END = "end of input"  # what reading yields at the end of input (or when the session closes)


class Quit(Exception):
    """Raised by the quit handler: reply, then end the session."""


class Control:
    """What a running command may ask of whoever serves it (here: nobody)."""

    def __init__(self) -> None:
        self.stop = StopFlag()
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


class Closing(Exception):
    """The session is ending (SIGINT with nothing to stop): stop waiting for input."""


class OutputGone(Closing):
    """The output is a pipe or socket nobody reads any more: the client has gone."""


class LineReader:
    """readline(limit) straight on a file descriptor, with no lock and no read-ahead beyond
    one chunk: a daemon thread may block in it at exit (a BufferedReader's lock would
    make the interpreter abort there), and the thread reading may change between lines
    without losing what is buffered.  With `wake_fd`, a wait for input ends with Closing
    as soon as that descriptor becomes readable; with `out_fd`, with OutputGone as soon
    as that descriptor reports an error or a hang-up (a pipe whose reader has gone)."""

    def __init__(self, fd: int, wake_fd: Optional[int] = None,
                 out_fd: Optional[int] = None) -> None:
        self.fd = fd
        self.buf = b""
        self.pos = 0  # where the next line starts in buf
        self.eof = False
        self.poller = None
        self.wake_fd, self.out_fd = wake_fd, out_fd
        if wake_fd is not None or out_fd is not None:
            self.poller = select.poll()
            self.poller.register(fd, select.POLLIN)
            if wake_fd is not None:
                self.poller.register(wake_fd, select.POLLIN)
            if out_fd is not None:
                self.poller.register(out_fd, 0)  # poll reports its errors and hang-ups anyway

    def ready(self) -> bool:
        """A line, or the end of the input, can be read without waiting."""
        if self.eof or self.buf.find(b"\n", self.pos) >= 0:
            return True
        poller = select.poll()
        poller.register(self.fd, select.POLLIN)
        return bool(poller.poll(0))

    def readline(self, limit: int = -1) -> bytes:
        while True:
            buf, pos = self.buf, self.pos
            end = buf.find(b"\n", pos)
            if end >= 0 and (limit < 0 or end - pos < limit):
                self.pos = end + 1
                return buf[pos:end + 1]
            if 0 <= limit <= len(buf) - pos or self.eof:
                self.pos = len(buf) if limit < 0 else min(len(buf), pos + limit)
                return buf[pos:self.pos]
            if self.poller is not None:
                for fd, _ in self.poller.poll():
                    if fd == self.wake_fd:
                        raise Closing
                    if fd == self.out_fd:
                        raise OutputGone
            chunk = os.read(self.fd, 65536)
            if chunk:
                self.buf, self.pos = buf[pos:] + chunk, 0
            else:
                self.eof = True


class SessionStop(StopFlag):
    """The session's stop flag.  The core and perft count their stoppable calls in
    ``running``; while it is above zero the session reads input ahead (Session.watch)."""

    def __init__(self, session: "Session") -> None:
        self.session = session
        self._running = 0
        super().__init__()

    @property
    def running(self) -> int:
        return self._running

    @running.setter
    def running(self, count: int) -> None:
        with self.session.sigint_lock:
            was, self._running = self._running, count
            if count and not was:
                # A SIGINT that came before the command got here already set the flag:
                # it stops this call, so it no longer ends the engine.
                self.session.sigint_unclaimed = None
        if count and not was:
            self.session.watch(True)
        elif was and not count:
            self.session.watch(False)


class Session(Control):
    """Serves one input stream to one output stream for one server."""

    def __init__(self, server, stdin, stdout: TextIO, handle_signals: bool = False) -> None:
        super().__init__()
        # A SIGINT during a command but before its search or perft started: that call
        # claims it (it is stopped at once); if none does, the engine ends after the reply.
        self.sigint_lock = threading.Lock()
        self.sigint_unclaimed: Optional[int] = None
        self.stop = SessionStop(self)
        self.server = server
        server.control = self
        self.stdin, self.stdout = stdin, stdout
        self.handle_signals = handle_signals
        self.wake_fd: Optional[int] = None  # readable once the session closes (SIGINT)
        self.out_fd: Optional[int] = None   # the output, watched for the client going away
        self.wake_write: Optional[int] = None
        self.events: Iterator[gtp.Event] = iter(())
        # Who reads the input (the loop, or the watcher while a search runs) and what the
        # watcher queued: guarded by `ready`, which also wakes whoever waits for them.
        self.ready = threading.Condition()
        self.queue: deque = deque()   # (line number, command) pairs, or END
        self.watcher_reads = False
        self.watch_wanted = False
        self.watcher: Optional[threading.Thread] = None
        # The loop, the watcher and the signal thread also share a few plain attributes
        # read without the lock (single reads and writes are atomic in CPython); where two
        # sides race, each writes first and reads second, so one of them sees the other.
        self.write_lock = threading.Lock()
        self.lines_read = 0         # every line, blank ones too (whoever reads)
        self.last_command = 0       # line number of the last command read
        # Line numbers of the queued commands that a `# interrupt` aimed at (watcher adds,
        # the loop takes each out as that command starts): every one is kept, however many.
        self.interrupted: set[int] = set()
        self.current: Optional[int] = None  # line number of the command running (loop)
        self.live = False           # the running command ends at the next line (loop)
        self.eof = False
        self.closing = False        # SIGINT with nothing to stop, or the output is gone
        self.dead = False           # the output is gone
        self.cid: Optional[str] = None
        self.streaming = False
        # the server's set-up for games (Server.load), run once when the loop waits for input
        self.reader: Optional[LineReader] = None
        self.get_ready: Optional[Callable[[], None]] = None

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
                fd = stream.fileno()
                self.out_fd = _output_fd(self.stdout, fd)
                if self.handle_signals:
                    self.wake_fd, self.wake_write = os.pipe()
                stream = self.reader = LineReader(fd, self.wake_fd, self.out_fd)
                self.get_ready = getattr(self.server, "load", None)
            except (OSError, ValueError):
                pass
        self.events = gtp.read_events(stream)
        try:
            self._execute()
        finally:
            close = getattr(self.server, "close", None)
            if close is not None:
                close()

    def _read(self):
        """The next event of the input (a Command, INTERRUPT, None for a blank line, or
        END), counted; by whichever thread reads the input now."""
        try:
            event = next(self.events)
        except StopIteration:
            event = END
        except OutputGone:
            self._output_gone()
            event = END
        except Closing:
            event = END
        except (OSError, ValueError) as e:  # stdin closed under us: as end of input
            logger().debug("input ended: %s", e)
            event = END
        if event is END:
            self.eof = True
        else:
            self.lines_read += 1
        if self.live:
            self.stop.set()
        return event

    def _next_command(self):
        """(line number, command) to run next, or None when the session ends."""
        while True:
            if self.watcher_reads or self.queue:  # (only this thread hands the input over)
                item = self._take_queued()
                if item is not False:
                    return item
            if self.get_ready is not None and self.reader is not None and not self.reader.ready():
                self._get_ready()
            event = self._read()  # the input is ours: nothing is running to interrupt
            if event is END:
                return None
            if isinstance(event, gtp.Command):
                self.last_command = self.lines_read
                return self.lines_read, event

    def _get_ready(self) -> None:
        """Nothing to answer yet: the server gets ready for the games now (once), so that the
        command that first needs one finds them loaded; a command that needs none (`quit`
        read at once) is answered without."""
        get_ready, self.get_ready = self.get_ready, None
        if get_ready is None:
            return
        try:
            get_ready()
        except Exception as e:  # noqa: BLE001 - the command that needs it then says what failed
            logger().debug("getting ready failed: %s", e)

    def _take_queued(self):
        """What the watcher read first: (line number, command), None at the end, or False
        when the queue is empty and the watcher has handed the input back."""
        with self.ready:
            while self.watcher_reads and not self.queue and not self.closing:
                self.ready.wait()
            if self.closing:
                return None
            if not self.queue:
                return False
            item = self.queue.popleft()
            self.ready.notify_all()  # the watcher may wait for room
            return None if item is END else item

    def watch(self, wanted: bool) -> None:
        """A stoppable call starts (True) or ends (False) in the loop: read ahead or not."""
        with self.ready:
            self.watch_wanted = wanted
            if wanted and not self.watcher_reads:  # the loop is not reading: hand it over
                self.watcher_reads = True
                if self.watcher is None:
                    self.watcher = threading.Thread(target=self._watch, name="watcher",
                                                    daemon=True)
                    self.watcher.start()
            self.ready.notify_all()

    def _watch(self) -> None:
        while True:
            with self.ready:
                while self.watcher_reads and self.watch_wanted and len(self.queue) >= QUEUE_LIMIT:
                    self.ready.wait()  # room first: the loop takes what is queued
                if self.watcher_reads and not self.watch_wanted:
                    self.watcher_reads = False  # between lines, all of them queued: hand back
                    self.ready.notify_all()
                while not self.watcher_reads:
                    self.ready.wait()
            event = self._read()
            with self.ready:
                if event is gtp.INTERRUPT:
                    # Aimed at the command read just before it, and at no other: it stops
                    # that one as soon as it starts if it is still queued (_run) ...
                    target = self.last_command
                    self.interrupted.add(target)
                    if self.current == target:  # ... or at once if it is running
                        self.stop.set()
                elif isinstance(event, gtp.Command):
                    self.last_command = self.lines_read
                    self.queue.append((self.lines_read, event))
                elif event is END:
                    self.queue.append(END)
                    self.watcher_reads = False  # nothing more to read
                self.ready.notify_all()
            if event is END:
                self._watch_output()
                return

    def _watch_output(self) -> None:
        """After the end of the input, while the commands read are answered: a client that
        has gone altogether (its end of the output closed too) stops them."""
        if self.out_fd is None or self.dead:
            return
        poller = select.poll()
        poller.register(self.out_fd, 0)  # errors and hang-ups only
        if self.wake_fd is not None:
            poller.register(self.wake_fd, select.POLLIN)
        try:
            events = poller.poll()
        except OSError:
            return
        if any(fd == self.out_fd for fd, _ in events):
            self._output_gone()

    def _signals(self) -> None:
        while True:
            signal.sigwait({signal.SIGINT})
            self.on_sigint()

    def on_sigint(self) -> None:
        """Stop the command in progress, or end the session when none is."""
        with self.sigint_lock:
            current = self.current
            if current is not None:
                self.stop.set()
                if not self.stop.running:
                    self.sigint_unclaimed = current
                return
        self._close()

    def _output_gone(self) -> None:
        """Nobody reads the output any more: stop the running command, answer nothing more."""
        with self.write_lock:
            if not self.dead:
                self.dead = True
                _silence_stdout(self.stdout)
        self._close()

    def _close(self) -> None:
        self.closing = True
        self.stop.set()
        if self.wake_write is not None:  # wakes a wait for input (and every later one)
            os.write(self.wake_write, b"!")
        with self.ready:
            self.ready.notify_all()

    def _execute(self) -> None:
        while not self.closing:
            item = self._next_command()
            if item is None or self.closing or not self._run(*item):
                return

    def _run(self, line_no: int, cmd: gtp.Command) -> bool:
        """Execute one command and write its reply; False when the session must end."""
        self.stop.clear()
        self.current = line_no  # an interrupt from now on stops it ...
        if self.interrupted:  # ... and one read already does too
            with self.ready:
                if line_no in self.interrupted:
                    self.stop.set()
                # commands up to this one have started: their marks are spent
                self.interrupted = {n for n in self.interrupted if n > line_no}
        self.cid, self.streaming = cmd.id, False
        try:
            ok, text = self.server.handle(cmd)
        except Quit:
            self._write(gtp.format_reply(cmd.id, True, ""))
            return False
        except Exception as e:  # a bug must not kill a long-running engine
            logger().exception("internal error in %r", cmd.name)
            ok, text = False, f"internal error: {type(e).__name__}"
        finally:
            with self.sigint_lock:
                self.current = None
                unclaimed, self.sigint_unclaimed = self.sigint_unclaimed, None
            self.live = False
        if self.streaming:  # the head went out already: only the end is left, or the error
            last = text.rstrip() if ok else f"error {text}"
            self._write(last + "\n\n" if last else "\n")
        else:
            self._write(gtp.format_reply(cmd.id, ok, text))
        if unclaimed == line_no:  # SIGINT with no search or perft to stop: the engine ends
            self._close()
            return False
        return True

    def _write(self, text: str) -> None:
        if self.dead:
            return
        with self.write_lock:
            try:
                self.stdout.write(text)
                self.stdout.flush()
            except (OSError, ValueError):  # a closed pipe, a full disk: nothing can be said
                self.dead = self.closing = True
                self.stop.set()
                _silence_stdout(self.stdout)


def _output_fd(stdout, input_fd: int) -> Optional[int]:
    """The output's descriptor, to watch for the client going away; None for a stream
    without one, or the input's own descriptor (poll would take it for the input)."""
    try:
        fd = stdout.fileno()
    except (AttributeError, OSError, ValueError):
        return None
    return None if fd == input_fd else fd


def _silence_stdout(stdout) -> None:
    """Point a dead stdout at /dev/null so the exit flush does not complain."""
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, stdout.fileno())
        os.close(devnull)
    except (OSError, ValueError, AttributeError):
        pass
