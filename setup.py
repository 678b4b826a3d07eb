"""Build step: compile the numba kernels ahead of time into ``fourcards._aot`` (optional).

Everything else is declared in pyproject.toml. With the compiled module, a first
run compiles nothing (see src/fourcards/native.py). If it cannot be built (no C
compiler, ``FOURCARDS_NO_AOT=1``), the package still installs and each kernel is
compiled by numba on first use instead, with a progress line, and cached.
"""

from __future__ import annotations

import os
import sys

from setuptools import setup
from setuptools.command.build_ext import build_ext


def _extensions() -> list:
    if os.environ.get("FOURCARDS_NO_AOT", "") not in ("", "0"):
        return []
    sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "src"))
    try:
        from fourcards.aot import extension

        return [extension()]
    except Exception as exc:  # pragma: no cover - a build without numba
        print(f"fourcards: kernels will be compiled on first use instead ({exc})", file=sys.stderr)
        return []
    finally:
        sys.path.pop(0)


class BuildKernels(build_ext):
    """``build_ext`` that lets numba.pycc generate the object code first, and never fails the install."""

    def build_extension(self, ext) -> None:
        try:
            if getattr(ext, "_cc", None) is not None and not getattr(ext, "extra_objects", None):
                ext._prepare_object_files(self)  # numba compiles the kernels to an object file
                self.force = True  # the kernel sources are not among the extension's declared sources
            super().build_extension(ext)
        except Exception as exc:  # pragma: no cover - no C compiler
            print(f"fourcards: kernels will be compiled on first use instead ({exc})", file=sys.stderr)


setup(ext_modules=_extensions(), cmdclass={"build_ext": BuildKernels})
