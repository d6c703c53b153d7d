"""The one way the engine and its tools read a file or standard input: bounded in size,
regular files only, never waiting on a FIFO or a device.

A FIFO, a terminal or /dev/zero would block the reader or never end, and /dev/stdin inside
the engine is the protocol itself; so only regular files are read, opened without waiting,
and standard input only where the caller asks for it with the path "-".
"""
from __future__ import annotations

import os
import stat
import sys
from typing import BinaryIO, Optional

MIB = 1 << 20


class InputError(ValueError):
    """A file or stdin that cannot be read as asked; the message is one line for a user."""


def _shown(path: str) -> str:
    return path if len(path) <= 200 else path[:200] + "..."


def _read_at_most(stream: BinaryIO, limit: int, name: str) -> bytes:
    data = stream.read(limit + 1)
    if data is None:  # a non-blocking stream with nothing yet
        data = b""
    if len(data) > limit:
        raise InputError(f"cannot read {name}: larger than {limit} bytes")
    return data


def read_bytes(path: str, limit: int, *, allow_stdin: bool = False,
               stdin: Optional[BinaryIO] = None) -> bytes:
    """The whole content of a regular file (or of stdin for "-" when allow_stdin), at most
    `limit` bytes; InputError otherwise (missing, a directory, a FIFO or device, too large)."""
    if path == "-" and allow_stdin:
        return _read_at_most(stdin if stdin is not None else sys.stdin.buffer, limit,
                             "standard input")
    name = _shown(path)
    if not path:
        raise InputError("cannot read an empty file name")
    try:
        if not stat.S_ISREG(os.stat(path).st_mode):
            raise InputError(f"cannot read {name}: not a regular file")
        fd = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_NOCTTY", 0))
        with os.fdopen(fd, "rb") as f:
            if not stat.S_ISREG(os.fstat(f.fileno()).st_mode):  # replaced since the stat
                raise InputError(f"cannot read {name}: not a regular file")
            return _read_at_most(f, limit, name)
    except OSError as e:
        raise InputError(f"cannot read {name}: {e.strerror or type(e).__name__}") from None
    except ValueError as e:
        if isinstance(e, InputError):
            raise
        raise InputError(f"cannot read {name!r}: a file name has no NUL character") from None


def read_text(path: str, limit: int, *, allow_stdin: bool = False,
              stdin: Optional[BinaryIO] = None, encoding: str = "utf-8") -> str:
    """read_bytes decoded; InputError (one line) for bytes that are not text in `encoding`.
    A leading UTF-8 byte order mark is dropped."""
    data = read_bytes(path, limit, allow_stdin=allow_stdin, stdin=stdin)
    name = "standard input" if path == "-" and allow_stdin else _shown(path)
    try:
        text = data.decode(encoding)
    except UnicodeDecodeError as e:
        raise InputError(f"cannot read {name}: not {encoding} text (byte {e.start})") from None
    return text[1:] if text.startswith("\ufeff") else text
