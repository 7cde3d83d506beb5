from Cython.Build import cythonize
from setuptools import Extension, setup

setup(name="a", ext_modules=cythonize([Extension("slice_twin", ["slice_twin.pyx"])], annotate=True),
      script_args=["build_ext", "--inplace"])
