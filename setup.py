"""The optional compiled build (issue 35): with ``GLOOMTABLE_COMPILE=1`` the engine and
rules modules listed in ``src/gloomtable/compiled.py`` are compiled with mypyc; without
it this is a plain setuptools build of the pure-Python package (the default). Every
other setting lives in pyproject.toml; the build backend (``buildsys/``) adds mypy to the
build requirements when the compiled build is asked for. ``MYPYC_OPT_LEVEL`` (0 to 3,
default 3) is passed on to the C compiler."""

import os
import runpy
import sys

from setuptools import setup

if os.environ.get("GLOOMTABLE_COMPILE") != "1":
    setup()
else:
    try:
        from mypyc.build import mypycify
    except ImportError:
        if "egg_info" not in sys.argv:
            raise SystemExit("GLOOMTABLE_COMPILE=1 needs mypy (mypyc) installed: "
                             "pip installs it as a build requirement (pyproject.toml)") from None
        setup()  # the build backend asking for requirements, before they are installed
    else:
        modules = runpy.run_path(os.path.join("src", "gloomtable", "compiled.py"))["COMPILED"]
        paths = [os.path.join("src", *m.split(".")) + ".py" for m in modules]
        setup(ext_modules=mypycify(paths, opt_level=os.environ.get("MYPYC_OPT_LEVEL", "3")))
