"""mjscore service: the FastAPI app, the web page and the command line."""

#: the release, as pyproject.toml's `version` says (tests/test_cli.py checks the two agree)
__version__ = "0.1.0"
