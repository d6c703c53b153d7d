"""Source files and functions a reader can take in: no source file in engine/ or csrc/ over 500
lines (generated files aside), no Python or C function over 80 lines.

PENDING names the files and functions still over a limit while they are split, with their
length today: one of them may not grow, and its entry must go once it is under the limit (the
test fails on a stale entry too), so the list only ever shrinks.
"""
from __future__ import annotations

import ast
import re
from pathlib import Path

from conftest import REPO

FILE_LIMIT = 500
FUNCTION_LIMIT = 80
SOURCES = [("engine", ("*.py", "*.js", "*.css", "*.html")), ("csrc", ("*.c", "*.h"))]
GENERATED = ("csrc/generated/",)

PENDING: dict[str, int] = {}

C_KEYWORDS = {"if", "for", "while", "switch", "return", "sizeof", "__attribute__", "always_inline"}
C_HEAD = re.compile(r"^[A-Za-z_][^;=]*\)\s*\{?\s*$")  # at column 0: a definition's head


def source_files() -> list[Path]:
    found = []
    for folder, patterns in SOURCES:
        for pattern in patterns:
            found += (REPO / folder).rglob(pattern)
    return sorted(p for p in found
                  if not any(str(p.relative_to(REPO)).startswith(g) for g in GENERATED))


def python_functions(text: str) -> list[tuple[str, int]]:
    return [(node.name, node.end_lineno - node.lineno + 1) for node in ast.walk(ast.parse(text))
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)) and node.end_lineno]


def c_functions(text: str) -> list[tuple[str, int]]:
    """(name, lines) of each function defined at column 0: from its head to the `}` at column 0."""
    lines = text.split("\n")
    found: list[tuple[str, int]] = []
    start: int | None = None
    name = ""
    for i, line in enumerate(lines):
        if start is None:
            opens = line.rstrip().endswith("{") or (i + 1 < len(lines) and lines[i + 1].strip() == "{")
            if C_HEAD.match(line) and opens:
                heads = re.findall(r"(\w+(?:\(\w+\))?)\s*\(", line)
                names = [h for h in heads if h.split("(")[0] not in C_KEYWORDS or "(" in h]
                if names:
                    start, name = i, names[0]
        elif line.startswith("}"):
            found.append((name, i - start + 1))
            start = None
    return found


def lengths() -> dict[str, int]:
    """Every source file's lines and every function's, by name."""
    sizes = {}
    for path in source_files():
        text = path.read_text(encoding="utf-8")
        rel = str(path.relative_to(REPO))
        sizes[rel] = text.count("\n")
        functions = python_functions(text) if path.suffix == ".py" else \
            c_functions(text) if path.suffix in (".c", ".h") else []
        for name, count in functions:
            key = f"{rel} {name}"
            sizes[key] = max(count, sizes.get(key, 0))
    return sizes


def limit_of(key: str) -> int:
    return FUNCTION_LIMIT if " " in key else FILE_LIMIT


def test_the_c_reader_finds_functions_and_their_length():
    text = ("static int S(node)(S(Thread) *t, int depth)\n{\n    return 0;\n}\n\n"
            "static inline __attribute__((always_inline)) int eval_impl(const P *p) {\n"
            "    if (x) {\n        y();\n    }\n    return 1;\n}\n"
            "static const GameOps OPS = {\n    .a = 1,\n};\nint declared(void);\n")
    assert c_functions(text) == [("S(node)", 4), ("eval_impl", 6)]


def test_no_source_file_over_500_lines_and_no_function_over_80():
    sizes = lengths()
    over = {key: count for key, count in sizes.items()
            if count > limit_of(key) and key not in PENDING}
    assert over == {}
    grown = {key: (sizes.get(key), most) for key, most in PENDING.items()
             if sizes.get(key, 0) > most}
    assert grown == {}, "a file or function being split grew"
    done = [key for key in PENDING if sizes.get(key, 0) <= limit_of(key)]
    assert done == [], "under the limit now: take it out of PENDING"
