"""engine.bounded_read: the one bounded reader of files and stdin."""
from __future__ import annotations

import io
import os

import pytest

from engine.bounded_read import InputError, read_bytes, read_text


def test_regular_file_within_the_limit(tmp_path):
    path = tmp_path / "a.txt"
    path.write_bytes("\ufeffhello\n".encode())
    assert read_bytes(str(path), 100) == "\ufeffhello\n".encode()
    assert read_text(str(path), 100) == "hello\n"


def test_too_large_is_refused(tmp_path):
    path = tmp_path / "big"
    path.write_bytes(b"x" * 101)
    with pytest.raises(InputError, match="larger than 100 bytes"):
        read_bytes(str(path), 100)
    assert read_bytes(str(path), 101) == b"x" * 101


@pytest.mark.parametrize("name", ["/dev/zero", "/dev/null"])
def test_devices_are_refused(name):
    with pytest.raises(InputError, match="not a regular file"):
        read_bytes(name, 100)


def test_fifo_is_refused_without_waiting(tmp_path):
    fifo = tmp_path / "fifo"
    os.mkfifo(fifo)
    with pytest.raises(InputError, match="not a regular file"):
        read_bytes(str(fifo), 100)


def test_directory_missing_and_nul(tmp_path):
    with pytest.raises(InputError, match="not a regular file"):
        read_bytes(str(tmp_path), 100)
    with pytest.raises(InputError, match="No such file"):
        read_bytes(str(tmp_path / "missing"), 100)
    with pytest.raises(InputError, match="NUL"):
        read_bytes("a\0b", 100)
    with pytest.raises(InputError, match="empty file name"):
        read_bytes("", 100)


def test_binary_is_not_text(tmp_path):
    path = tmp_path / "junk.bin"
    path.write_bytes(b"ok\xff\xfe")
    with pytest.raises(InputError, match="not utf-8 text"):
        read_text(str(path), 100)


def test_stdin_only_when_asked():
    assert read_bytes("-", 10, allow_stdin=True, stdin=io.BytesIO(b"moves")) == b"moves"
    with pytest.raises(InputError, match="standard input: larger than 3"):
        read_bytes("-", 3, allow_stdin=True, stdin=io.BytesIO(b"moves"))
    with pytest.raises(InputError):  # "-" is a file name unless stdin is asked for
        read_bytes("-", 10)
