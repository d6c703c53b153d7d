"""Builds the compiled core (engine._core, cffi API mode) and PyPI's long description.

Metadata lives in pyproject.toml.  Without a C compiler the build still succeeds, but says so
loudly: the engine then runs with its one-ply Python player only (engine.core.AVAILABLE is False).
With GIPF_REQUIRE_CORE=1 (CI sets it) a core that does not compile fails the build instead.
"""
import os
import re
import sys
from pathlib import Path

from setuptools import setup
from setuptools.command.build_ext import build_ext
from setuptools.command.build_py import build_py

HERE = Path(__file__).resolve().parent
CORE_REQUIRED = os.environ.get("GIPF_REQUIRE_CORE", "") not in ("", "0")


class CoreBuildExt(build_ext):
    """build_ext that, unless GIPF_REQUIRE_CORE is set, warns instead of failing."""

    def run(self):
        try:
            super().run()
        except Exception as exc:  # noqa: BLE001 - any build failure must not break install
            self._failed(exc)

    def build_extension(self, ext):
        try:
            super().build_extension(ext)
        except Exception as exc:  # noqa: BLE001 - same reason as in run()
            self._failed(exc)

    @staticmethod
    def _failed(exc):
        if CORE_REQUIRED:
            raise SystemExit(f"error: GIPF_REQUIRE_CORE is set and the compiled core engine._core "
                             f"could not be built ({type(exc).__name__}: {exc})")
        bar = "!" * 78
        sys.stderr.write(
            f"\n{bar}\nWARNING: the compiled core engine._core could not be built\n"
            f"  ({type(exc).__name__}: {exc}).\n"
            "  The engine will play with its one-ply Python player only, far weaker.\n"
            "  Install a C compiler and the Python headers and reinstall; set GIPF_REQUIRE_CORE=1\n"
            f"  to make this an error.\n{bar}\n\n")


class BuildPyWithProtocol(build_py):
    """build_py that installs protocol.md as engine/data/protocol.md, so an installed engine can
    name its reference (gipf-engine --help); the source tree keeps one copy, at its root."""

    def run(self):
        super().run()
        target = Path(self.build_lib) / "engine" / "data" / "protocol.md"
        self.mkpath(str(target.parent))
        self.copy_file(str(HERE / "protocol.md"), str(target))


def core_modules() -> list[str]:
    """The cffi build of the core, or none (said loudly, or fatal under GIPF_REQUIRE_CORE) when
    the header its declarations are read from is missing: the builder could not even load."""
    header = HERE / "csrc" / "core" / "core_api.h"
    if not header.is_file():
        CoreBuildExt._failed(FileNotFoundError(f"{header.relative_to(HERE)} is missing"))
        return []
    return ["engine/_core_build.py:ffibuilder"]


_RELATIVE = r"\(((?![a-z]+:)[^)\s#]+)(#[^)\s]*)?\)"


def long_description() -> str:
    """README.md for PyPI, where links into the source tree do not resolve: a picture becomes its
    caption, a link its text with the file named."""
    text = (HERE / "README.md").read_text(encoding="utf-8")
    text = re.sub(r"!\[([^\]]*)\]" + _RELATIVE,
                  lambda m: f"*Picture ({m.group(2)} in the source distribution): {m.group(1)}*",
                  text)
    return re.sub(r"\[([^\]]*)\]" + _RELATIVE, lambda m: f"{m.group(1)} ({m.group(2)})", text)


setup(
    long_description=long_description(),
    long_description_content_type="text/markdown",
    cffi_modules=core_modules(),
    cmdclass={"build_ext": CoreBuildExt, "build_py": BuildPyWithProtocol},
)
