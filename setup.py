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



PURE_MODE = ("codes", "deal", "betting", "state", "state_view", "play", "encode", "vector")
"""The modules of pokerdraw32._handcore compiled as ``pokerdraw32._handcore.<module>_c``, lowest first: the
hand's core (its codes, dealing, betting, the rest: one chain of cdef classes, DealCore <- BettingCore <-
HandCore), its state read and copied, the bots' play, the research encoding and the vector core."""


def copy_for_cython(here: str, target: str, sources: list[tuple[str, str]]) -> None:
    """Copy each ``(source, name)`` to ``target/name`` unless it is there unchanged (a copy's new time
    would make Cython compile it again), and give ``target`` an ``__init__.py`` (Cython names a module
    by the packages of its folder)."""
    os.makedirs(target, exist_ok=True)
    open(os.path.join(target, "__init__.py"), "a").close()
    for source, name in sources:
        dest = os.path.join(target, name)
        with open(os.path.join(here, source), "rb") as f:
            data = f.read()
        if not os.path.exists(dest) or open(dest, "rb").read() != data:
            with open(dest, "wb") as f:
                f.write(data)


def pure_mode_extensions() -> list[Extension]:
    """The hand's core, its read-only state, the built-in bots' play and the research encoding,
    each one source in Cython's pure-Python mode (src/pokerdraw32/_handcore/state.py with the
    declarations of _handcore/state.pxd; the other modules of PURE_MODE likewise), compiled as
    pokerdraw32._handcore.codes_c, deal_c, betting_c, state_c, state_view_c, play_c, encode_c and
    vector_c so that each .py stays importable as plain Python beside it (POKERDRAW32_NO_EXTENSIONS=1
    at run time). Cython finds an augmenting .pxd by the module's name, so both files are copied under
    that name into build/cython-src/pokerdraw32/_handcore, beside _core.pxd (the C interface of _core
    that the core cimports, and which Cython reads when it compiles src/_core.pyx as pokerdraw32._core:
    it looks the .pxd up by the module's name)."""
    here = os.path.dirname(os.path.abspath(__file__))
    target = os.path.join("build", "cython-src", "pokerdraw32")
    copy_for_cython(here, target, [(os.path.join("src", "_core.pxd"), "_core.pxd")])
    core_target = os.path.join(target, "_handcore")
    copy_for_cython(here, core_target, [(os.path.join("src", "pokerdraw32", "_handcore", module + ext),
                                         module + "_c" + ext) for module in PURE_MODE for ext in (".py", ".pxd")])
    modules = [Extension(f"pokerdraw32._handcore.{m}_c", [os.path.join(core_target, m + "_c.py")]) for m in PURE_MODE]
    modules.append(cfr_extension(here, target))
    modules.append(cfr_extension(here, target, "_bucketgame"))
    core = Extension("pokerdraw32._core", ["src/_core.pyx"])   # directives in its header
    try:
        from Cython.Build import cythonize
    except ImportError:   # only without the build requirements (setup.py run by hand): the C compile says so
        for ext in (core, *modules):
            ext.sources = [ext.sources[0].rsplit(".", 1)[0] + ".c"]
        return [core, *modules]
    include = [os.path.join("build", "cython-src")]   # where Cython finds pokerdraw32/_core.pxd for all three
    built = cythonize([core], include_path=include, quiet=True) + cythonize(modules,
                      compiler_directives={"language_level": 3, "binding": False, "infer_types": True,
                                           "warn.unreachable": False, "freethreading_compatible": True},
                      include_path=include, quiet=True)
    check_gil_free([ext.sources[0] for ext in built])
    return built


def cfr_extension(here: str, target: str, name: str = "_mccfr") -> Extension:
    """The solver's walk (issue 26), src/pokerdraw32/cfr/_mccfr.py with _mccfr.pxd, compiled as
    pokerdraw32.cfr._mccfr_c (copied to build/cython-src/pokerdraw32/cfr/ as the pure-mode modules
    above).  pokerdraw32.cfr._select picks it or its pure twin, following pokerdraw32._kernels; it is
    not one of _kernels' all-or-none modules.  No floating-point contraction (fused multiply-add):
    the compiled walk must add and multiply exactly as the pure twin does (tests/test_cfr_solver.py).
    ``name="_bucketgame"``: the bucket game's tables and best-response walk (tests/test_cfr_exploit.py)."""
    cfr_target = os.path.join(target, "cfr")
    copy_for_cython(here, cfr_target, [(os.path.join("src", "pokerdraw32", "cfr", name + ext), name + "_c" + ext)
                                       for ext in (".py", ".pxd")])
    flags = [] if sys.platform == "win32" else ["-ffp-contract=off"]
    return Extension(f"pokerdraw32.cfr.{name}_c", [os.path.join(cfr_target, name + "_c.py")], extra_compile_args=flags)


def check_gil_free(c_files: list[str]) -> None:
    """Refuse a build in which a nogil function takes the GIL on every call: a Python object local
    to a nogil function (even one only used inside ``with gil:``) makes Cython take the GIL at the
    function's exit to release it, every time, which serialises threads that should run at once
    (sessions in threads ran at 1.2x instead of 1.7x on 2 cores).  Such code belongs in a separate
    function called with the GIL."""
    import re

    found = []
    for path in c_files:
        with open(path, encoding="utf-8") as f:
            text = f.read()
        for m in re.finditer(r"\nstatic [^\n;]*?(__pyx_f_\w+)\([^\n]*\{\n(.*?)\n\}\n", text, re.S):
            exit_at = m.group(2).find("__pyx_L0:;")
            if exit_at >= 0 and "PyGILState_Ensure" in m.group(2)[exit_at:exit_at + 200]:
                found.append(f"{os.path.basename(path)}: {m.group(1)}")
    if found:
        raise SystemExit("pokerdraw32: these nogil functions take the GIL on every call (a Python object local to "
                         "a nogil function; move that code to a function called with the GIL):\n  "
                         + "\n  ".join(found))


ext_modules = []
if not no_extensions:
    # Cython (a build requirement) compiles the .pyx and the pure-mode .py files at build time; the
    # sdist keeps them, not generated .c files.
    print("pokerdraw32: compiling pokerdraw32._core, " + ", ".join(f"_handcore.{m}_c" for m in PURE_MODE) + "; set "
          "POKERDRAW32_NO_EXTENSIONS=1 to skip it")
    ext_modules = pure_mode_extensions()

class BuildExt(build_ext):
    """build_ext whose failure ends with one line naming POKERDRAW32_NO_EXTENSIONS=1 (a missing or
    broken C compiler otherwise ends the install with a raw compiler error). It still fails."""

    def run(self) -> None:
        try:
            super().run()
        except (CCompilerError, ExecError, PlatformError) as e:   # compile, link, spawn, no MSVC
            raise type(e)(f"{e}\n{NO_COMPILER_HINT}") from e


setup(ext_modules=ext_modules, cmdclass={"build_ext": BuildExt})
