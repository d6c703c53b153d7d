"""GTP 2 framing (engine/protocol/gtp.py) without a game: parse_line, read_commands, format_reply.

The GTP 2 rules checked here: an optional numeric id is echoed; '#' starts a
comment; control characters other than HT and LF are dropped; HT is a space;
blank and comment-only lines get no reply; every reply is '=' or '?' plus the
id, ended by one empty line and never containing one before that.  Our own
additions: lines over MAX_LINE_BYTES and lines that are not UTF-8 are still
answered (with an error) so a client never waits forever.
"""
from __future__ import annotations

import io
import re

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine.protocol.gtp import MAX_LINE_BYTES, Command, format_reply, parse_line, read_commands


def commands(data: bytes) -> list[Command]:
    return list(read_commands(io.BytesIO(data)))


_SPEC_CONTROLS = bytes(range(0, 9)) + bytes(range(10, 32)) + b"\x7f"  # all but HT


BOM = b"\xef\xbb\xbf"  # protocol.md 2.1, rule 0


def spec_blank(line: bytes) -> bool:
    """Does GTP 2 give this line (without its LF) no reply?  Written from the spec, not gtp.py."""
    kept = line.translate(None, _SPEC_CONTROLS)  # drop controls but HT
    kept = kept.replace(b"\t", b" ").split(b"#")[0]
    return kept.strip(b" ") == b""


# --- parse_line ----------------------------------------------------------------------------

def test_plain_command_and_arguments():
    assert parse_line(b"play w A1") == Command(None, "play", ["w", "A1"])


def test_numeric_id_is_taken_and_kept_verbatim():
    assert parse_line(b"17 name") == Command("17", "name", [])
    assert parse_line(b"007 play b D3") == Command("007", "play", ["b", "D3"])
    assert parse_line(b"  9   version  ") == Command("9", "version", [])


def test_digits_glued_to_a_word_are_not_an_id():
    cmd = parse_line(b"17name")
    assert (cmd.id, cmd.name) == (None, "17name")


def test_only_ascii_digits_make_an_id():
    # '\d' in a str pattern also matches Arabic-Indic and other digits; '=٣' is not GTP
    cmd = parse_line("\u0663 name".encode())
    assert cmd.id is None and cmd.name == "\u0663"


def test_id_without_a_command_is_an_error_that_keeps_the_id():
    cmd = parse_line(b"42")
    assert cmd.id == "42" and cmd.error and cmd.name == ""
    cmd = parse_line(b"42   # only a comment after the id")
    assert cmd.id == "42" and cmd.error


@pytest.mark.parametrize("line", [b"", b"   ", b"\t \t", b"# a comment", b"   # indented comment",
                                  b"\r", b"\r\r", b"\x00\x01\x1f\x7f", b"\t#\xff\xfe not utf-8 in a comment",
                                  b"\x0b\x0c"])
def test_lines_that_get_no_reply(line):
    assert parse_line(line) is None


def test_comment_is_cut_from_a_command():
    assert parse_line(b"5 name # what are you called?") == Command("5", "name", [])
    assert parse_line(b"play w A1#C3") == Command(None, "play", ["w", "A1"])


def test_crlf_and_lone_carriage_returns_are_dropped():
    assert parse_line(b"name\r") == Command(None, "name", [])
    assert parse_line(b"na\rme") == Command(None, "name", [])  # CR is a control character, not a line end
    assert parse_line(b"\r12 play\r w\r A1\r") == Command("12", "play", ["w", "A1"])


def test_tabs_are_spaces():
    assert parse_line(b"3\tplay\tw\t\tA1\t") == Command("3", "play", ["w", "A1"])


def test_control_characters_are_dropped_not_treated_as_separators():
    assert parse_line(b"\x00na\x01m\x1be\x7f") == Command(None, "name", [])
    assert parse_line(b"play\x00 w \x08A1") == Command(None, "play", ["w", "A1"])


def test_not_utf8_is_an_error_that_keeps_the_id():
    cmd = parse_line(b"\xff\xfe")
    assert cmd.error and "UTF-8" in cmd.error and cmd.id is None
    cmd = parse_line(b"23 play w \xc3(")
    assert cmd.error and cmd.id == "23"


def test_utf8_arguments_pass_through():
    assert parse_line("play w \u00e91".encode()) == Command(None, "play", ["w", "\u00e91"])


@settings(max_examples=150, deadline=None)
@given(st.binary(max_size=200).filter(lambda b: b"\n" not in b))
def test_any_line_gets_a_reply_exactly_when_the_spec_says_so(line):
    cmd = parse_line(line)
    assert (cmd is None) == spec_blank(line)
    if cmd is not None:
        assert cmd.error or cmd.name, "a command with no name must carry an error"
        assert cmd.id is None or re.fullmatch(r"[0-9]+", cmd.id)
        assert " " not in cmd.name and all(" " not in a and a for a in cmd.args)
        assert not any(ord(c) < 32 or ord(c) == 127 for c in cmd.name + "".join(cmd.args))


# --- read_commands ---------------------------------------------------------------------------

def test_stream_of_commands_blank_lines_and_comments_skipped():
    data = b"1 name\n\n# comment\n\r\n2 version\r\n   \nknown_command play\nlast_without_lf"
    got = [(c.id, c.name, c.args) for c in commands(data)]
    assert got == [("1", "name", []), ("2", "version", []), (None, "known_command", ["play"]),
                   (None, "last_without_lf", [])]


def test_empty_stream_gives_nothing():
    assert commands(b"") == []
    assert commands(b"\n\n\n") == []


class OneLineAtATime(io.BytesIO):
    """A stream that fails if read beyond what the consumer has asked for (a pipe would block)."""

    def __init__(self, data: bytes, allowed_lines: int) -> None:
        super().__init__(data)
        self.allowed = allowed_lines

    def readline(self, size=-1):
        assert self.allowed > 0, "read_commands read ahead of the command it is serving"
        self.allowed -= 1
        return super().readline(size)

    def read(self, *a):
        raise AssertionError("read_commands must not read to EOF")


def test_commands_are_served_as_they_arrive_without_reading_ahead():
    stream = OneLineAtATime(b"1 name\n2 version\n3 quit\n", allowed_lines=1)
    it = read_commands(stream)
    assert next(it).id == "1"
    stream.allowed = 1
    assert next(it).id == "2"


def test_line_of_exactly_max_bytes_is_served():
    line = b"7 name" + b" " * (MAX_LINE_BYTES - 6)
    assert len(line) == MAX_LINE_BYTES
    assert [(c.id, c.name, c.error) for c in commands(line + b"\n1 version\n")] == \
        [("7", "name", None), ("1", "version", None)]


@pytest.mark.parametrize("extra", [1, 2, MAX_LINE_BYTES, 5 * MAX_LINE_BYTES + 3])
def test_overlong_line_is_an_error_with_its_id_and_the_next_command_is_served(extra):
    line = b"31 name " + b"x" * (MAX_LINE_BYTES - 8 + extra)
    assert len(line) == MAX_LINE_BYTES + extra
    got = commands(line + b"\n32 version\n")
    assert len(got) == 2
    assert got[0].id == "31" and got[0].error and str(MAX_LINE_BYTES) in got[0].error
    assert (got[1].id, got[1].name, got[1].error) == ("32", "version", None)


def test_overlong_line_keeps_an_id_after_leading_junk():
    got = commands(b"\x00" * 40 + b" \t 12 name " + b"x" * MAX_LINE_BYTES + b"\n")
    assert len(got) == 1 and got[0].id == "12" and got[0].error


def test_overlong_line_at_eof_without_lf():
    got = commands(b"name\n" + b"y" * (3 * MAX_LINE_BYTES))
    assert [c.name for c in got] == ["name", ""] and got[1].error


def test_overlong_lines_back_to_back():
    big = b"z" * (MAX_LINE_BYTES + 10)
    got = commands(big + b"\n" + big + b"\r\n" + b"4 name\n")
    assert [bool(c.error) for c in got] == [True, True, False] and got[2].id == "4"


@pytest.mark.parametrize("line", [
    b" " * (MAX_LINE_BYTES + 1),
    b"\t \r" * MAX_LINE_BYTES,
    b"# " + b"long comment " * 20000,
    b" " * (MAX_LINE_BYTES + 5) + b"# comment starting after the first piece" + b"x" * MAX_LINE_BYTES,
    b"\x00" * (2 * MAX_LINE_BYTES),
], ids=["spaces", "tab-space-cr", "comment", "comment-after-first-piece", "nuls"])
def test_overlong_blank_or_comment_line_gets_no_reply(line):
    # the client counts one reply per command: an unasked-for error would shift every later reply
    got = commands(line + b"\n5 name\n")
    assert [(c.id, c.name) for c in got] == [("5", "name")]


def test_overlong_line_with_content_after_long_blank_start_is_answered():
    line = b" " * (MAX_LINE_BYTES + 5) + b"name"
    got = commands(line + b"\n")
    assert len(got) == 1 and got[0].error


def test_invalid_utf8_in_stream_keeps_id_and_next_command_served():
    got = commands(b"8 pl\xe9y w A1\n9 name\n")
    assert got[0].id == "8" and got[0].error
    assert (got[1].id, got[1].name, got[1].error) == ("9", "name", None)


@settings(max_examples=100, deadline=None)
@given(st.lists(st.binary(max_size=40).filter(lambda b: b"\n" not in b), max_size=12))
def test_one_command_per_non_blank_line_in_order(lines):
    data = b"\n".join(lines) + b"\n"
    got = commands(data)
    if lines and lines[0].startswith(BOM):  # a byte-order mark opening the stream is not part of the line
        lines = [lines[0][len(BOM):], *lines[1:]]
    assert len(got) == sum(not spec_blank(line) for line in lines)


# --- format_reply ---------------------------------------------------------------------------

def test_success_and_failure_with_and_without_id():
    assert format_reply(None, True, "") == "=\n\n"
    assert format_reply("12", True, "") == "=12\n\n"
    assert format_reply("12", True, "Gipfbot") == "=12 Gipfbot\n\n"
    assert format_reply(None, False, "unknown command: foo") == "? unknown command: foo\n\n"
    assert format_reply("3", False, "bad") == "?3 bad\n\n"


def test_multi_line_reply_starts_on_a_new_line_and_keeps_indentation():
    board = "   C5\n  B4  .\nA1"
    assert format_reply("1", True, board) == "=1\n   C5\n  B4  .\nA1\n\n"


@pytest.mark.parametrize("text", [
    "a\n\nb", "a\n \t \nb", "\n  \nabc", "abc\n  ", " \nabc\n \n", "a\r\n\r\nb", "a\n\x0c\nb",
    "\n\n\n", "x\n\n\n\ny", "  \n",
])
def test_blank_lines_never_reach_the_client(text):
    reply = format_reply("4", True, text)
    assert well_formed(reply), repr(reply)
    content = [line.strip() for line in text.split("\n") if line.strip()]
    body = reply[2:-2].split("\n")
    assert [line.strip() for line in body if line.strip()] == content


def well_formed(reply: str) -> bool:
    """Ends with exactly one empty line and has none before it."""
    return reply.endswith("\n\n") and "\n\n" not in reply[:-2] and not reply[:-2].endswith("\n")


reply_lines = st.lists(st.one_of(st.sampled_from(["", " ", "\t", "\r", "x", "  y z", "\x0c"]),
                                 st.text(max_size=12)), max_size=6).map("\n".join)


@settings(max_examples=150, deadline=None)
@given(st.one_of(st.none(), st.from_regex(r"[0-9]{1,12}", fullmatch=True)), st.booleans(),
       st.one_of(st.text(max_size=80), reply_lines))
def test_every_reply_is_one_well_formed_block(cid, ok, text):
    reply = format_reply(cid, ok, text)
    assert well_formed(reply), repr(reply)
    head = reply.split("\n", 1)[0]
    assert re.match(r"[=?][0-9]*( |$)", head)
    assert head.startswith(("=" if ok else "?") + (cid or ""))
    assert head[1:].split(" ", 1)[0] == (cid or "")


@pytest.mark.parametrize("cid, ok, text", [
    (None, True, ""), ("7", True, "E3-F3"), ("12", False, "illegal move: A1 is occupied"),
    (None, True, "line one\nline two"), ("3", True, "\nstarts on a new line"),
    (None, True, "      C1\n   c1     C1\nwhite to act"),  # showboard: indented first line
])
def test_parse_reply_reads_what_format_reply_writes(cid, ok, text):
    from engine.protocol.gtp import parse_reply
    lines = format_reply(cid, ok, text).rstrip("\n").split("\n")
    assert parse_reply(lines) == (ok, cid, text.strip("\n"))


def test_parse_reply_refuses_a_line_that_is_no_reply():
    from engine.protocol.gtp import parse_reply
    with pytest.raises(ValueError, match="not a GTP reply"):
        parse_reply(["hello"])
