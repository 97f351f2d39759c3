"""Build hook: compile the rules engine's hot modules with mypyc (everything else is in pyproject.toml).

The modules stay ordinary Python: without the compiled extensions (``MJSCORE_PURE=1`` at install
time, no mypyc, or a failed C build) ``scoring`` runs from the same source, with the same results.
The compiled modules are built in place next to their sources (ignored by git): after editing one
of them, reinstall (``pip install -e .``) or delete its ``.so`` file, or Python keeps importing the
old compiled one.
"""

import os

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
    if os.environ.get("MJSCORE_PURE") == "1":
        return []
    try:
        from mypyc.build import mypycify
    except ImportError:
        print("mjscore: mypyc is not installed; scoring stays pure Python")
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
