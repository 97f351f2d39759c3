"""Build hook: an opt-in mypyc-compiled rules engine (everything else is in pyproject.toml).

By default nothing is built: ``pip install .`` and ``pip install -e .`` (what ``make test`` and
``make serve`` run) install pure Python, need no mypy and no C compiler, and take no extra time.

With ``MJSCORE_COMPILE=1`` set at install time, the hot modules of ``scoring`` below are compiled
with mypyc (same source, same results, faster: benchmarks/results/scoring.md).  mypyc
comes with mypy, which is not a build requirement (every default install would fetch it), so
install mypy (and the build system's setuptools) first and build without isolation, for a
deployment::

    pip install 'mypy>=1.11' 'setuptools>=77'
    MJSCORE_COMPILE=1 pip install --no-build-isolation .

Editable installs stay pure even with ``MJSCORE_COMPILE=1``: a compiled module in an editable
install is built next to its source and keeps running its old ``.so`` after the source changes.
If mypyc is missing, refuses the code, or the C build fails, the install goes on with pure
Python and prints why (shown by ``pip install -v``).
"""

import os
import sys

from setuptools import setup

# The modules a scored case runs through (the package's __init__, tiles.py, explain.py, game.py
# and cli.py stay Python).
COMPILED = [
    "scoring/arrange.py",
    "scoring/case.py",
    "scoring/engine.py",
    "scoring/settle.py",
    "scoring/shape_tables.py",
    "scoring/rules/__init__.py",
    "scoring/rules/common.py",
    "scoring/rules/classical.py",
    "scoring/rules/pung_chow.py",
    "scoring/rules/pung_chow_limit.py",
]


def ext_modules() -> list:
    if os.environ.get("MJSCORE_COMPILE") != "1":
        return []
    if {"editable_wheel", "develop"} & set(sys.argv[1:]):  # pip install -e . (PEP 660, or legacy)
        print("mjscore: MJSCORE_COMPILE=1 is ignored by editable installs (a compiled module next to "
              "its source would keep running after the source changes); scoring stays pure Python")
        return []
    try:
        from mypyc.build import mypycify
    except ImportError:
        print("mjscore: MJSCORE_COMPILE=1 but mypyc is not installed (pip install 'mypy>=1.11', "
              "then install with --no-build-isolation); scoring stays pure Python")
        return []
    try:
        extensions = mypycify(COMPILED, opt_level="3", group_name="scoring")
    except (Exception, SystemExit) as err:  # mypyc refuses code that does not type-check
        print(f"mjscore: mypyc could not compile scoring ({err}); scoring stays pure Python")
        return []
    for ext in extensions:
        ext.optional = True  # a failed C build leaves the pure-Python modules in use
    return extensions


setup(ext_modules=ext_modules())
