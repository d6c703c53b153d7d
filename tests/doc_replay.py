"""Replaying the documents' transcripts against the real engine.

A transcript is a fenced block of paragraphs separated by empty lines: the lines a client sends
(a command, perhaps followed by `# interrupt`), then the engine's reply, which starts with `=` or
`?`. The marker `…` stands for what depends on the clock or the machine (protocol.md, "How
examples are written"): inside a line it matches any text up to the end of its field, a line that
is only `…` matches any number of whole lines. Everything else must be equal.

COMPARED counts the replies compared per document; conftest.py prints it at the end of a run."""
from __future__ import annotations

import queue
import re
import subprocess
import sys
import threading
from collections import Counter
from dataclasses import dataclass
from pathlib import Path

MARK = "…"
COMPARED: Counter[str] = Counter()


@dataclass
class Exchange:
    sent: list[str]
    reply: list[str]

    @property
    def command(self) -> str:
        return re.sub(r"^\d+\s+", "", self.sent[0])


@dataclass
class Block:
    document: str
    line: int  # of the opening fence
    heading: str
    exchanges: list[Exchange]

    @property
    def name(self) -> str:
        return f"{self.document}:{self.line} {self.heading}"


def fenced_blocks(text: str, language: str) -> list[tuple[int, str, str]]:
    """(line of the opening fence, the heading above it, its body) of every ```language block."""
    found, heading, body, start = [], "", None, 0
    for number, line in enumerate(text.split("\n"), 1):
        if body is None:
            if line.startswith("#"):
                heading = line.lstrip("# ").strip()
            elif line.strip() == f"```{language}":
                body, start = [], number
        elif line.startswith("```"):
            found.append((start, heading, "\n".join(body)))
            body = None
        else:
            body.append(line)
    return found


def exchanges(body: str, output: tuple[str, ...] = ("=", "?")) -> list[Exchange]:
    """The block's paragraphs; a paragraph's output starts at its first line starting with one
    of `output` (a reply; with stderr shown, a log line too)."""
    found = []
    for paragraph in re.split(r"\n\s*\n", body.strip("\n")):
        lines = paragraph.split("\n")
        first_reply = next((i for i, line in enumerate(lines) if line.startswith(output)), len(lines))
        assert 0 < first_reply < len(lines), f"not a command and its reply: {paragraph!r}"
        found.append(Exchange(lines[:first_reply], lines[first_reply:]))
    return found


def transcripts(path: Path, language: str = "gtp") -> list[Block]:
    text = path.read_text(encoding="utf-8")
    return [Block(path.name, line, heading, exchanges(body))
            for line, heading, body in fenced_blocks(text, language)]


def pattern(expected: list[str]) -> re.Pattern:
    """The regular expression a reply must match in full: `…` as described above."""
    parts = []
    for line in expected:
        if line == MARK:
            parts.append(r"(?:[^\n]*\n)*?")
        else:
            parts.append(r"[^\n]+?".join(re.escape(part) for part in line.split(MARK)) + r"\n")
    return re.compile("".join(parts))


def matches(expected: list[str], got: list[str]) -> bool:
    return pattern(expected).fullmatch("".join(line + "\n" for line in got)) is not None


class Engine:
    """The engine process with a reader thread, so that a reply can be awaited line by line."""

    def __init__(self, cwd: Path, argv: list[str] | None = None, with_stderr: bool = False):
        """with_stderr: the engine's stderr joins its stdout, in the order they are written."""
        self.proc = subprocess.Popen(argv or [sys.executable, "-m", "engine"], cwd=cwd, text=True,
                                     stdin=subprocess.PIPE, stdout=subprocess.PIPE, bufsize=1,
                                     stderr=subprocess.STDOUT if with_stderr else subprocess.DEVNULL)
        self.lines: queue.Queue[str | None] = queue.Queue()
        self.reader = threading.Thread(target=self._read, daemon=True)
        self.reader.start()

    def _read(self) -> None:
        assert self.proc.stdout is not None
        for line in self.proc.stdout:
            self.lines.put(line.rstrip("\n"))
        self.lines.put(None)

    def send(self, lines: list[str]) -> None:
        assert self.proc.stdin is not None
        self.proc.stdin.write("".join(line + "\n" for line in lines))
        self.proc.stdin.flush()

    def line(self) -> str:
        got = self.lines.get(timeout=120)
        assert got is not None, "the engine ended before its reply"
        return got

    def rest_of_reply(self, first: list[str]) -> list[str]:
        reply = list(first)
        while (line := self.line()) != "":
            reply.append(line)
        return reply

    def close(self) -> int:
        assert self.proc.stdin is not None and self.proc.stdout is not None
        if self.proc.poll() is None:
            try:
                self.proc.stdin.close()
            except BrokenPipeError:
                pass
        code = self.proc.wait(timeout=60)
        self.reader.join(timeout=10)
        self.proc.stdout.close()
        return code


def replay(block: Block, cwd: Path, engine: Engine | None = None) -> list[tuple[Exchange, list[str]]]:
    """Each exchange of the block with the engine's reply, from a freshly started engine (or the
    one given). An `analyze live` followed by another command is ended by that command, as in a
    GUI: it is sent once the reply's `=` line is out."""
    engine = engine or Engine(cwd)
    got: list[tuple[Exchange, list[str]]] = []
    try:
        pending: tuple[Exchange, list[str]] | None = None
        for exchange in block.exchanges:
            engine.send(exchange.sent)
            if pending:
                got.append((pending[0], engine.rest_of_reply(pending[1])))
                pending = None
            if exchange.command.startswith("analyze live") and exchange is not block.exchanges[-1]:
                pending = (exchange, [engine.line()])
                continue
            got.append((exchange, engine.rest_of_reply([])))
    finally:
        engine.close()
    return got
