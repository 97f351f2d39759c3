"""mjscore service: the FastAPI app, the web page and the command line."""
