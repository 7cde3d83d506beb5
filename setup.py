"""Build the one C extension, pokerdraw32._core, from src/_core.pyx (see README.md, first lines).

POKERDRAW32_NO_EXTENSIONS=1 installs the pure-Python package (also the case off CPython).
POKERDRAW32_REQUIRE_EXTENSIONS=1 makes that an error instead. Either way a failed compile
fails the install: no silent fallback.
"""

import os
import sys

from setuptools import Extension, setup


def env_flag(name: str) -> bool:
    return os.environ.get(name, "").strip().lower() not in ("", "0", "false", "no", "off")


no_extensions = env_flag("POKERDRAW32_NO_EXTENSIONS")
require_extensions = env_flag("POKERDRAW32_REQUIRE_EXTENSIONS")
if no_extensions and require_extensions:
    sys.exit("POKERDRAW32_NO_EXTENSIONS and POKERDRAW32_REQUIRE_EXTENSIONS are both set")
if sys.implementation.name != "cpython":
    if require_extensions:
        sys.exit(f"POKERDRAW32_REQUIRE_EXTENSIONS is set, but {sys.implementation.name} is not CPython")
    no_extensions = True

ext_modules = []
if not no_extensions:
    # setuptools cythonizes the .pyx (Cython is a build requirement) and keeps the .pyx,
    # not a generated .c, in the sdist. Cython directives are in the .pyx header.
    print("pokerdraw32: compiling pokerdraw32._core; set POKERDRAW32_NO_EXTENSIONS=1 to skip it")
    ext_modules = [Extension("pokerdraw32._core", ["src/_core.pyx"])]

setup(ext_modules=ext_modules)
