"""mjscore vision: find, rectify and group the tiles in a photo of a finished table."""
