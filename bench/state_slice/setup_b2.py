import os
import shutil

from Cython.Build import cythonize
from setuptools import Extension, setup

os.makedirs("buildB2", exist_ok=True)
shutil.copyfile("slice_ann.py", "buildB2/slice_ann_c.py")
setup(name="b2", ext_modules=cythonize([Extension("slice_ann_c", ["buildB2/slice_ann_c.py"])], annotate=True),
      script_args=["build_ext", "--inplace"])
