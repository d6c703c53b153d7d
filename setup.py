"""Builds the optional compiled core (engine._core, cffi API mode).

Metadata lives in pyproject.toml.  If the C build fails (no compiler, ...),
installation still succeeds: engine.core then reports AVAILABLE = False.
"""
import sys

from setuptools import setup
from setuptools.command.build_ext import build_ext


class OptionalBuildExt(build_ext):
    """build_ext that warns instead of failing when the core cannot be compiled."""

    def run(self):
        try:
            super().run()
        except Exception as exc:  # noqa: BLE001 - any build failure must not break install
            self._warn(exc)

    def build_extension(self, ext):
        try:
            super().build_extension(ext)
        except Exception as exc:  # noqa: BLE001
            self._warn(exc)

    @staticmethod
    def _warn(exc):
        sys.stderr.write(
            "WARNING: the compiled core engine._core could not be built (%s: %s); "
            "the engine will run without it.\n" % (type(exc).__name__, exc))


setup(
    cffi_modules=["engine/_core_build.py:ffibuilder"],
    cmdclass={"build_ext": OptionalBuildExt},
)
