"""Build the one C extension, pokerdraw32._core, from src/_core.pyx (see README.md, first lines).

POKERDRAW32_NO_EXTENSIONS=1 installs the pure-Python package (also the case off CPython).
POKERDRAW32_REQUIRE_EXTENSIONS=1 makes that an error instead. Either way a failed compile
fails the install: no silent fallback, but its last line says how to install without a compiler.
"""

import os
import sys

from setuptools import Extension, setup
from setuptools.command.build_ext import build_ext
from setuptools.errors import CCompilerError, ExecError, PlatformError

NO_COMPILER_HINT = (
    "pokerdraw32: compiling the C extension pokerdraw32._core failed (see above). To install the pure-Python "
    "package instead, which gives the same results more slowly, set POKERDRAW32_NO_EXTENSIONS=1, e.g. "
    "POKERDRAW32_NO_EXTENSIONS=1 pip install pokerdraw32"
)


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



def state_extension() -> list[Extension]:
    """The hand's core, one source in Cython's pure-Python mode (src/pokerdraw32/_state.py with the
    declarations of _state.pxd), compiled as pokerdraw32._state_c so that the .py stays importable
    as plain Python beside it (POKERDRAW32_NO_EXTENSIONS=1 at run time). Cython finds an augmenting
    .pxd by the module's name, so both files are copied under that name into build/cython-src."""
    here = os.path.dirname(os.path.abspath(__file__))
    target = os.path.join("build", "cython-src", "pokerdraw32")
    os.makedirs(target, exist_ok=True)
    for ext in (".py", ".pxd"):
        source = os.path.join(here, "src", "pokerdraw32", "_state" + ext)
        dest = os.path.join(target, "_state_c" + ext)
        with open(source, "rb") as f:
            data = f.read()
        if not os.path.exists(dest) or open(dest, "rb").read() != data:
            with open(dest, "wb") as f:
                f.write(data)
    open(os.path.join(target, "__init__.py"), "a").close()
    try:
        from Cython.Build import cythonize
    except ImportError:   # only without the build requirements (setup.py run by hand): the C compile says so
        return [Extension("pokerdraw32._state_c", [os.path.join(target, "_state_c.c")])]
    return cythonize([Extension("pokerdraw32._state_c", [os.path.join(target, "_state_c.py")])],
                     compiler_directives={"language_level": 3, "binding": False, "infer_types": True, "warn.unreachable": False,
                                          "freethreading_compatible": True},
                     include_path=[os.path.join("build", "cython-src")], quiet=True)


ext_modules = []
if not no_extensions:
    # setuptools cythonizes the .pyx (Cython is a build requirement) and keeps the .pyx,
    # not a generated .c, in the sdist. Cython directives are in the .pyx header.
    print("pokerdraw32: compiling pokerdraw32._core and pokerdraw32._state_c; set POKERDRAW32_NO_EXTENSIONS=1 to skip "
          "it")
    ext_modules = [Extension("pokerdraw32._core", ["src/_core.pyx"]), *state_extension()]

class BuildExt(build_ext):
    """build_ext whose failure ends with one line naming POKERDRAW32_NO_EXTENSIONS=1 (a missing or
    broken C compiler otherwise ends the install with a raw compiler error). It still fails."""

    def run(self) -> None:
        try:
            super().run()
        except (CCompilerError, ExecError, PlatformError) as e:   # compile, link, spawn, no MSVC
            raise type(e)(f"{e}\n{NO_COMPILER_HINT}") from e


setup(ext_modules=ext_modules, cmdclass={"build_ext": BuildExt})
