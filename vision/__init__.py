"""mjscore vision: find, rectify and group the tiles in a photo of a finished table.

    from vision import recognize, build_case
    rec = recognize("table.jpg", camera_seat="E")     # tiles, seats (hands), warnings
    case = build_case(rec, {"ruleset": "pung-chow", "winner": "S", "win_by": "discard"})

Vision knows nothing of points: scoring.score_table(case) does the rest.
"""

from vision.case import CaseError, build_case
from vision.io import ImageError, load_image
from vision.recognize import Recognition, RecognizedTile, recognize

__all__ = ["recognize", "build_case", "load_image", "Recognition", "RecognizedTile", "ImageError",
           "CaseError"]
