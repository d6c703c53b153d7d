"""GTP version 2 framing only: reading command lines and writing replies.

Knows nothing about games.  Follows the GTP 2 spec: control characters
other than HT and LF are dropped, HT becomes a space, '#' starts a comment,
blank lines get no reply, an optional numeric id is echoed, and every reply
ends with an empty line.  GoGui's `# interrupt` comment line is told apart
(read_events) so the server can stop the command running before it.  Lines that are too long or not UTF-8 still get a
reply (an error) so a client never waits forever.
"""
from __future__ import annotations

import re
from typing import BinaryIO, Iterator, NamedTuple, Optional, Union

MAX_LINE_BYTES = 65536
_CONTROLS = bytes(range(0x09)) + bytes(range(0x0a, 0x20)) + b"\x7f"  # all but HT
_BOM = b"\xef\xbb\xbf"  # a UTF-8 byte order mark, as some editors start a file
_ID = re.compile(r"^([0-9]+)(?:\s+|$)")  # ASCII digits only: \d would take "٣"
_INTERRUPT = re.compile(rb"#[ \t]*interrupt")  # GoGui: a comment line asking to stop
INTERRUPT = "# interrupt"  # the event read_events yields for it


class Command(NamedTuple):  # not a dataclass: start-up then need not import dataclasses
    id: Optional[str]
    name: str
    args: list[str]
    error: Optional[str] = None  # set when the line could not be read as a command


def _clean(raw: bytes) -> bytes:
    raw = raw.split(b"#", 1)[0]
    # translate, not a regex: linear and fast even for a line of nothing but control bytes
    return raw.replace(b"\t", b" ").translate(None, _CONTROLS).strip()


def parse_line(raw: bytes) -> Optional[Command]:
    """One command from one raw line (without its LF); None for a line that gets no reply."""
    raw = _clean(raw)
    if not raw:
        return None
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError:
        text = raw.decode("latin-1")
        m = _ID.match(text)
        return Command(m.group(1) if m else None, "", [], "command is not valid UTF-8")
    cid = None
    m = _ID.match(text)
    if m:
        cid, text = m.group(1), text[m.end():]
    words = text.split()
    if not words:
        if cid is None:  # only Unicode white space (U+00A0, U+3000, ...): a blank line
            return None
        return Command(cid, "", [], "missing command name after the id")
    return Command(cid, words[0], words[1:])


def read_commands(stream: BinaryIO) -> Iterator[Command]:
    """Commands from a byte stream until EOF; overlong lines become error commands."""
    return (event for event in read_events(stream) if isinstance(event, Command))


Event = Union[Command, str, None]


def read_events(stream: BinaryIO) -> Iterator[Event]:
    """One event per line until EOF: a Command, INTERRUPT for GoGui's `# interrupt`,
    or None for a line that gets no reply.  Never reads beyond the line it yields.
    A byte order mark at the very start of the stream is skipped."""
    first = True
    while True:
        raw = stream.readline(MAX_LINE_BYTES + 1)
        if not raw:
            return
        at_start, first = first, False
        if len(raw) > MAX_LINE_BYTES and not raw.endswith(b"\n"):
            blank, comment = not _clean(raw), b"#" in raw
            while True:  # throw the rest of the line away, in bounded pieces
                rest = stream.readline(MAX_LINE_BYTES)
                if not comment:  # a long blank or comment line gets no reply either
                    blank, comment = blank and not _clean(rest), b"#" in rest
                if not rest or rest.endswith(b"\n"):
                    break
            if blank:
                yield None
                continue
            m = _ID.match(_clean(raw).decode("latin-1"))
            yield Command(m.group(1) if m else None, "", [],
                          f"line longer than {MAX_LINE_BYTES} bytes")
            continue
        line = raw.rstrip(b"\n")
        if at_start and line.startswith(_BOM):
            line = line[len(_BOM):]
        if b"#" in line and _INTERRUPT.fullmatch(line.translate(None, _CONTROLS).strip(b" \t")):
            yield INTERRUPT
            continue
        yield parse_line(line)


_REPLY_HEAD = re.compile(r"([=?])([0-9]*)(?: (.*))?$")


def parse_reply(lines: list[str]) -> tuple[bool, Optional[str], str]:
    """(ok, id or None, text) of one reply's lines (without the empty line that ends it);
    the text without '=', '?' and id.  ValueError if the first line is not a reply."""
    m = _REPLY_HEAD.match(lines[0].rstrip("\r") if lines else "")
    if not m:
        raise ValueError(f"not a GTP reply: {lines[0][:80]!r}" if lines else "no reply")
    text = "\n".join([(m.group(3) or "").strip()] + [line.rstrip("\r") for line in lines[1:]])
    # only line ends: a drawing's first line (showboard) starts with spaces that place its cells
    return m.group(1) == "=", m.group(2) or None, text.strip("\n")


def format_reply(cid: Optional[str], ok: bool, text: str) -> str:
    """'=id text' or '?id text', ended by an empty line; a multi-line text starts on a new line."""
    head = ("=" if ok else "?") + (cid or "")
    if "\n" not in text:  # the common case, kept cheap
        text = text.rstrip()
        return f"{head} {text}\n\n" if text else head + "\n\n"
    # an empty line would end the reply early: drop blank lines, wherever they are
    text = "\n".join(line for line in (raw.rstrip() for raw in text.split("\n")) if line)
    if not text:
        return head + "\n\n"
    if "\n" in text:
        return f"{head}\n{text}\n\n"
    return f"{head} {text}\n\n"
