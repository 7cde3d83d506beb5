# Build variant B: slice_pure.py + slice_pure.pxd compiled as the extension `slice_pure_c`,
# leaving slice_pure.py importable as plain Python.  Cython finds an augmenting .pxd by the
# MODULE name (slice_pure_c.pxd), not by the source file name, so both files are copied
# under the new name into a build directory first.
import os
import shutil

from Cython.Build import cythonize
from setuptools import Extension, setup

os.makedirs("buildB", exist_ok=True)
for ext in (".py", ".pxd"):
    shutil.copyfile("slice_pure" + ext, "buildB/slice_pure_c" + ext)
setup(name="b", ext_modules=cythonize([Extension("slice_pure_c", ["buildB/slice_pure_c.py"])], annotate=True),
      script_args=["build_ext", "--inplace"])
