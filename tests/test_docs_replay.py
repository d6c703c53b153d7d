"""Every transcript the documents show is the engine's real answer: each ```gtp block of
protocol.md and README.md is replayed against a freshly started engine, in the folder of the
shipped example records, and every reply is compared; only what the document marks with `…`
(the clock's share, protocol.md "How examples are written") is not. The replies compared are
counted per document and printed at the end of the run (conftest.py)."""
from __future__ import annotations

import re
import subprocess
import sys

import pytest
from conftest import REPO
from doc_replay import COMPARED, MARK, Block, Engine, Exchange, exchanges, matches, pattern, replay, transcripts

from engine.examples import EXAMPLES

DOCUMENTS = [REPO / "protocol.md", REPO / "README.md"]
BLOCKS = [block for path in DOCUMENTS for block in transcripts(path)]


def test_every_document_has_transcripts():
    counts = {path.name: sum(1 for b in BLOCKS if b.document == path.name) for path in DOCUMENTS}
    assert counts["protocol.md"] >= 30 and counts["README.md"] == 1, counts


@pytest.mark.parametrize("block", BLOCKS, ids=lambda b: f"{b.document}:{b.line}")
def test_transcript_replays_exactly(block: Block):
    differ = []
    for exchange, got in replay(block, EXAMPLES):
        if not matches(exchange.reply, got):
            differ.append(f"{exchange.sent}:\n  document: {exchange.reply}\n  engine:   {got}")
    assert not differ, f"{block.name}: {len(differ)} replies differ:\n" + "\n".join(differ)
    COMPARED[block.document] += len(block.exchanges)


def test_the_markers_only_skip_what_they_mark():
    """`…` stands for text inside its line, or for whole lines when alone; nothing else is loose."""
    assert matches(["= time …"], ["= time 12"]) and not matches(["= time …"], ["= time "])
    assert not matches(["= score -342"], ["= score -341"])
    assert not matches(["=", "B4"], ["=", "B4", "score 0"])  # an extra line is a difference
    assert matches(["=", "…", "bestmove …"], ["=", "info a", "info b", "bestmove B4"])
    assert matches(["=", "…", "bestmove …"], ["=", "bestmove B4"])
    assert not matches(["= …"], ["= a", "b"])  # `…` inside a line never spans lines
    assert pattern(["a.b"]).fullmatch("a.b\n") and not pattern(["a.b"]).fullmatch("axb\n")


def test_a_changed_reply_fails_the_replay(tmp_path):
    """The comparison catches a reply that differs from the document."""
    block = Block("sample.md", 1, "sample", [Exchange(["newgame tzaar"], ["="]),
                                             Exchange(["option depth 2"], ["="]),
                                             Exchange(["genmove"], ["= A1xA2"])])
    (_, _), (_, _), (exchange, got) = replay(block, EXAMPLES)
    assert got[0].startswith("= ") and not matches(exchange.reply, got)


def stderr_examples() -> list[tuple[list[str], list[str]]]:
    """§6.6's real stderr lines: (the commands named before the block, the lines shown)."""
    text = (REPO / "protocol.md").read_text(encoding="utf-8")
    section = text[text.index("### 6.6 Search progress"):text.index("### 6.7 ")]
    found = []
    for intro, body in re.findall(r"Real lines? from (.*?):\n\n```text\n(.*?)```", section, re.S):
        commands = re.findall(r"`((?:newgame|option|genmove)[^`]*)`", intro)
        found.append((commands, body.strip("\n").split("\n")))
    return found


def test_the_stderr_progress_lines_are_real():
    examples = stderr_examples()
    assert len(examples) == 2
    for commands, shown in examples:
        done = subprocess.run([sys.executable, "-m", "engine"], input="\n".join(commands) + "\nquit\n",
                              capture_output=True, text=True, cwd=EXAMPLES, timeout=120)
        assert matches(shown, done.stderr.rstrip("\n").split("\n")), (commands, done.stderr)
        COMPARED["protocol.md stderr"] += len(shown)


def test_every_transcript_marks_only_the_clock():
    """`…` appears only where the clock decides: time, nps, and searches stopped by a line."""
    for block in BLOCKS:
        for exchange in block.exchanges:
            for line in exchange.reply:
                if MARK not in line:
                    continue
                clock = re.fullmatch(r"(time|score|depth|nodes|pv) …|…|bestmove …|"
                                     r"info multipv \d+ move \S+ score -?\d+ depth \d+ nodes \d+ "
                                     r"nps … time … pv [^…]+", line)
                assert clock, f"{block.name}: {exchange.sent}: {line!r}"
                if not line.startswith(("time", "info")):
                    assert exchange.sent[-1] == "# interrupt" or "analyze live" in exchange.command, \
                        f"{block.name}: {exchange.sent}: {line!r} marked but not stopped by a line"


def text_blocks(start: str, end: str) -> list[list[str]]:
    """The ```text blocks of protocol.md between two headings, as lists of lines."""
    text = (REPO / "protocol.md").read_text(encoding="utf-8")
    section = text[text.index(start):text.index(end)]
    return [body.strip("\n").split("\n") for body in re.findall(r"```text\n(.*?)```", section, re.S)]


def raw_input(shown: str) -> bytes:
    """The bytes a row of §2.1's table sends: printf's escapes, or the two rows said in words."""
    if shown.startswith("printf "):
        return shown[len("printf '"):-1].encode("latin-1").decode("unicode_escape").encode("latin-1")
    if shown.startswith("'8 ' + 70000 x 'x'"):
        return b"8 " + b"x" * 70000 + b"\n"
    assert shown == "'10 name' then end of input", shown
    return b"10 name"


def test_the_raw_byte_examples_are_real():
    (rows,) = text_blocks("### 2.1 Commands", "## 3. Coordinates")
    assert len(rows) == 6
    for row in rows:
        shown, reply = (part.strip() for part in row.split("->"))
        reply = reply.split("  (")[0].strip()
        done = subprocess.run([sys.executable, "-m", "engine"], input=raw_input(shown),
                              capture_output=True, cwd=EXAMPLES, timeout=60)
        assert done.returncode == 0 and done.stdout.decode().split("\n")[0] == reply, (row, done.stdout)
        COMPARED["protocol.md"] += 1


def test_the_position_string_examples_are_real():
    """§7's position strings: `setposition` takes each and `position` gives it back unchanged;
    the DVONN one after two stack moves is §9.1's, the TZAAR one the moves named before it."""
    blocks = text_blocks("## 7. Position strings", "## 8. ")
    positions = [line for block in blocks for line in block if line.startswith(("dvonn ", "tzaar "))]
    assert len(positions) == 4
    commands = [f"setposition {p}\nposition" for p in positions]
    commands.append("newgame tzaar\nreplay C2xC3 F4xG4,G6xG5 F5xF6,D3+E4\nposition")
    done = subprocess.run([sys.executable, "-m", "engine"], input="\n".join(commands) + "\nquit\n",
                          capture_output=True, text=True, cwd=EXAMPLES, timeout=60)
    replies = done.stdout.split("\n\n")
    assert [replies[2 * i + 1] for i in range(4)] == [f"= {p}" for p in positions]
    assert replies[10] == f"= {positions[3]}"
    section_9_1 = (REPO / "protocol.md").read_text(encoding="utf-8").split("### 9.1 DVONN")[1]
    assert f"position\n= {positions[1]}\n" in section_9_1.split("### 9.2")[0]
    COMPARED["protocol.md"] += 5


def test_the_pondering_example_is_real():
    """§6.9's transcript shows stderr among the replies: replayed with the engine's stderr joined
    to its stdout, as written, the engine started with --log-level info."""
    (body,) = re.findall(r"```text\n(.*?)```", (REPO / "protocol.md").read_text(encoding="utf-8")
                         .split("### 6.9 Pondering")[1].split("### 6.10")[0], re.S)
    block = Block("protocol.md", 0, "6.9 Pondering", exchanges(body, ("=", "?", "engine.")))
    assert any(line.startswith("engine.ponder INFO: ponder hit") for e in block.exchanges for line in e.reply)
    engine = Engine(EXAMPLES, [sys.executable, "-m", "engine", "--log-level", "info"], with_stderr=True)
    for exchange, got in replay(block, EXAMPLES, engine):
        assert matches(exchange.reply, got), (exchange.sent, got)
    COMPARED["protocol.md"] += len(block.exchanges)
