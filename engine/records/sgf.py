"""Just enough SGF: nodes of properties, the main line of the first game tree.

Hand-written because sgfmill rejects Boardspace's `P0[...]` property names.
Iterative (no recursion: a deeply nested file is an error, not a crash) and
regular-expression driven, so a 4 MiB file parses in well under a second per MiB.
"""
from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Optional, Sequence

from .base import RecordError, quote

# Far above any real game (a Boardspace DVONN game has a few hundred nodes, no variations):
# a file beyond them is refused at once instead of being parsed for seconds.
MAX_ITEMS = 50_000   # nodes and property values
MAX_DEPTH = 1_000    # nested variations


@dataclass
class SgfNode:
    """One SGF node: its properties in file order, one (ident, value) per value."""

    props: list[tuple[str, str]] = field(default_factory=list)
    line: int = 0

    def get(self, ident: str) -> Optional[str]:
        for name, value in self.props:
            if name == ident:
                return value
        return None

    def values(self, ident: str) -> list[str]:
        return [value for name, value in self.props if name == ident]


_TOKEN = re.compile(r"[ \t\r\n\v\f]*(?:([;()])|([^\W_]+)|(\[))")
_VALUE = re.compile(r"([^\]\\]*(?:\\.[^\]\\]*)*)\]", re.S)  # unrolled: no backtracking
_SPACE = re.compile(r"[ \t\r\n\v\f]*")


class _Scanner:
    def __init__(self, text: str) -> None:
        self.text = text
        self.pos = 0
        self._line, self._counted = 1, 0

    def line(self) -> int:
        """Line number of the current position (counted incrementally)."""
        self._line += self.text.count("\n", self._counted, self.pos)
        self._counted = self.pos
        return self._line

    def error(self, message: str) -> RecordError:
        return RecordError(f"SGF line {self.line()}: {message}")

    def found(self) -> str:
        self.pos = _SPACE.match(self.text, self.pos).end()  # type: ignore[union-attr]  # '*' always matches
        return repr(self.text[self.pos:self.pos + 1] or "the end of the file")

    def game_tree(self) -> list[SgfNode]:
        """Parse '(' nodes subtrees ')'; return the main line (first variations)."""
        text, token = self.text, _TOKEN
        nodes: list[SgfNode] = []
        # per open tree: (on the main line, a subtree of it has been opened)
        open_trees: list[list[bool]] = []
        m = token.match(text, self.pos)
        if not m or m.group(1) != "(":
            raise self.error(f"expected '(', found {self.found()}")
        self.pos = m.end()
        open_trees.append([True, False])
        self.items = 0
        while open_trees:
            m = token.match(text, self.pos)
            if m is None:
                raise self.error(f"expected ')', found {self.found()}")
            mark = m.group(1)
            tree = open_trees[-1]
            if mark == ";" and not tree[1]:
                self.pos = m.end()
                node = self.node()
                if tree[0]:
                    nodes.append(node)
            elif mark == "(":
                self.pos = m.end()
                if len(open_trees) >= MAX_DEPTH:
                    raise self.error(f"variations nested more than {MAX_DEPTH} deep: not a game record")
                open_trees.append([tree[0] and not tree[1], False])
                tree[1] = True
            elif mark == ")":
                self.pos = m.end()
                open_trees.pop()
            else:
                raise self.error(f"expected ')', found {self.found()}")
        return nodes

    def count(self, items: int) -> None:
        self.items += items
        if self.items > MAX_ITEMS:
            raise self.error(f"more than {MAX_ITEMS} nodes and values: not a game record")

    def node(self) -> SgfNode:
        self.count(1)
        node = SgfNode(line=self.line())
        text, token, props = self.text, _TOKEN, node.props
        while True:
            m = token.match(text, self.pos)
            if not m or not m.group(2):
                return node
            ident = m.group(2)
            self.pos = m.end()
            m = token.match(text, self.pos)
            if not m or not m.group(3):
                raise self.error(f"property {quote(ident)} has no value")
            while m and m.group(3):
                self.pos = m.end()
                self.count(1)
                props.append((ident, self.value()))
                m = token.match(text, self.pos)

    def value(self) -> str:
        """A bracketed value (after its '['); backslash escapes the next character."""
        m = _VALUE.match(self.text, self.pos)
        if not m:
            raise self.error("a property value is not closed with ']'")
        self.pos = m.end()
        value = m.group(1)
        if "\\" not in value:
            return value
        # '\\' is a backslash, '\x' is x: pairs left to right, as the match read them
        mark = next(chr(c) for c in range(0xE000, 0xF900) if chr(c) not in value)
        return value.replace("\\\\", mark).replace("\\", "").replace(mark, "\\")


def parse_sgf(text: str) -> list[SgfNode]:
    """The nodes of the first game tree's main line; anything after it is ignored."""
    scanner = _Scanner(text)
    if scanner.found() != "'('":
        raise scanner.error("an SGF record starts with '('")
    return scanner.game_tree()


def sgf_escape(value: str) -> str:
    return value.replace("\\", "\\\\").replace("]", "\\]")


def sgf_comment(comments: Optional[Sequence[str]], index: int) -> str:
    """``C[...]`` for comments[index], or '' when there is none."""
    if comments is None or index >= len(comments) or not comments[index]:
        return ""
    return f"C[{sgf_escape(comments[index])}]"
