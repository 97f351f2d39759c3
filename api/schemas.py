"""Request and response shapes of the HTTP API, as they appear in the OpenAPI document (/docs).

The table format is the one of docs/case-format.md (vectors.json cases); the rules engine checks its
meaning (seats, tiles, meld shapes) and answers with its own error codes, so these models only
pin down the JSON types and let every extra field through.
"""

from __future__ import annotations

from typing import Annotated, Any, Literal, Optional, Union

from pydantic import BaseModel, ConfigDict, Field, StringConstraints

from scoring.game import MAX_GAME_HANDS

Seat = Literal["E", "S", "W", "N"]
Ruleset = Literal["pung-chow", "pung-chow-limit", "classical"]
WinBy = Literal["self-draw", "discard", "loose-tile", "robbing-kong", "original-hand"]
#: tiles as an MPSZ string or a list of codes, at most a few times what any hand holds (18 tiles
#: with four kongs, 8 flowers and seasons): a hand of 100,000 tiles is refused by its size before
#: the engine reads it, and its error message cannot repeat megabytes back
TileText = Union[Annotated[str, StringConstraints(max_length=120)],
                 Annotated[list[Annotated[str, StringConstraints(max_length=8)]], Field(max_length=40)]]


class Meld(BaseModel):
    model_config = ConfigDict(extra="allow")
    kind: str = Field(description="chow, pung or kong")
    tiles: TileText = Field(description="MPSZ tiles, e.g. '345m' or '5555z'")
    exposed: bool = True


class Hand(BaseModel):
    model_config = ConfigDict(extra="allow")
    seat: str = Field(description="E, S, W or N")
    winner: bool = False
    concealed: TileText = Field("", description="every hidden tile; for the winner including the winning tile")
    melds: list[Meld] = Field(default_factory=list, max_length=8)
    winning_tile: Optional[Annotated[str, StringConstraints(max_length=8)]] = None
    win_by: Optional[str] = Field(None, description="self-draw, discard, loose-tile, robbing-kong, original-hand")
    flags: list[Annotated[str, StringConstraints(max_length=40)]] = Field(default_factory=list, max_length=10)
    bonus_tiles: TileText = ""


class Table(BaseModel):
    """One table in the vectors.json case format (docs/case-format.md); notes of its own (notes, source) pass through."""

    model_config = ConfigDict(
        extra="allow",
        json_schema_extra={
            "examples": [
                {
                    "ruleset": "pung-chow",
                    "seat_wind": "S",
                    "round_wind": None,
                    "hands": [
                        {
                            "seat": "S",
                            "winner": True,
                            "concealed": "123678s222p99m",
                            "melds": [{"kind": "chow", "tiles": "345m", "exposed": True}],
                            "winning_tile": "2p",
                            "win_by": "discard",
                            "flags": [],
                        }
                    ],
                }
            ]
        },
    )
    id: Union[Annotated[str, StringConstraints(max_length=200)], int, None] = Field(
        None, description="your name for the table, given back with its result")
    ruleset: str = Field(description="pung-chow, pung-chow-limit or classical")
    seat_wind: Optional[str] = None
    round_wind: Optional[str] = None
    params: dict[str, Any] = Field(default_factory=dict)
    kind: Optional[str] = None
    hands: list[Hand] = Field(min_length=1, max_length=4)
    discarder: Optional[str] = None
    discarder_exempt: bool = False

    def to_case(self) -> dict:
        return self.model_dump(exclude_unset=True)


# (their length of 1 to 40 characters is the engine's to judge, once accents are composed)
PlayerName = Annotated[str, StringConstraints(strip_whitespace=True, min_length=1, max_length=200)]


class GameRequest(BaseModel):
    """A game so far: its four players, seated East, South, West, North at its first hand, and
    the tables of the hands won, in order (each as /api/v1/score takes it, with the winds of that
    hand).  The server keeps nothing: send the whole game each time a hand is added."""

    model_config = ConfigDict(extra="forbid", json_schema_extra={"examples": [{
        "ruleset": "pung-chow-limit", "players": ["Ann", "Bo", "Cy", "Di"], "hands": []}]})
    ruleset: Ruleset
    players: list[PlayerName] = Field(min_length=4, max_length=4)
    hands: list[Table] = Field(default_factory=list, max_length=MAX_GAME_HANDS)


class GameHand(BaseModel):
    number: int
    round_wind: Seat = Field(description="the wind of the round the hand was played in")
    seats: dict[str, str] = Field(description="wind -> player at this hand")
    winner: Optional[str] = Field(description="the player who won, null for a hand no one won (a wash)")
    payments: dict[str, int] = Field(description="player -> points won (+) or paid (-) in this hand")
    east_wins: int = Field(description="the hands East had won in a row before this one")


class GameNext(BaseModel):
    hand: int
    round_wind: Seat
    seats: dict[str, str] = Field(description="wind -> player at the next hand")
    east_wins: int = Field(description="the hands this East has won in a row (the classical rules' limit hand J is "
                                       "East's thirteenth: the game gives each classical hand its count)")


class GameResult(BaseModel):
    ruleset: Ruleset
    players: list[str]
    hands: list[GameHand]
    totals: dict[str, int] = Field(description="player -> points won (+) or paid (-) so far")
    next: Optional[GameNext] = Field(description="who sits where at the next hand; null once the game is over")
    finished: bool = Field(description="four rounds of the wind have been played")


class ScoreResult(BaseModel):
    """What ``mjscore score`` prints for one table (``score`` or ``scores`` by seat, and so on)."""

    model_config = ConfigDict(extra="allow")


class TileOut(BaseModel):
    model_config = ConfigDict(extra="allow")
    box: list[float] = Field(description="x1, y1, x2, y2 in pixels of the uploaded (EXIF-rotated) image")
    code: str
    confidence: float
    seat: Optional[str] = None
    group: Optional[Any] = Field(
        None, description="concealed (the concealed run), meld-1, meld-2, ... (the seat's sets), bonus (a flower or "
                          "season), apart (laid apart, making no set: counted with the concealed tiles); from "
                          "/api/v1/photo/score also extra (lying by itself, its hand full without it: not counted)")
    face_down: bool = False
    quad: Optional[list[list[float]]] = Field(
        None, description="the tile's four corners in the same pixels, the first two its top edge as its player sees it")
    candidates: list[tuple[str, float]] = Field(
        default_factory=list, description="the classifier's three likeliest readings, best first, as [code, "
                                          "probability]; `code` may differ when the table's rules put the tile right")


class Recognition(BaseModel):
    model_config = ConfigDict(extra="allow")
    width: int
    height: int
    tiles: list[TileOut]
    seats: dict[str, Any] = Field(description="each seat's hand in the vectors.json hand format")
    warnings: list[Any] = Field(default_factory=list)
    warning_tiles: list[list[int]] = Field(default_factory=list, description="for each warning, the tiles it is "
                                                                            "about: indices into tiles")
    warning_kinds: list[str] = Field(
        default_factory=list, description="for each warning, what it is about, for a program to tell the warnings "
                                          "apart without their words: apart (tiles laid apart that make no set, "
                                          "counted with the concealed tiles), count (a seat's tile count), "
                                          "bonus-apart (a lone tile read as a suit or honour tile, taken for its "
                                          "likeliest flower or season because it lies where they lie); from "
                                          "/api/v1/photo/score also extra (a tile left out of a hand full without "
                                          "it) and winning (a lone tile taken as the winning tile), each in place "
                                          "of the warning it makes untrue; empty for any other warning")
    annotated_image: Optional[str] = Field(None, description="data: URL of a JPEG with every tile outlined")
    photo_image: Optional[str] = Field(None, description="with photo=true: data: URL of the photo itself, upright, "
                                                         "at most 1600 pixels long, for a page that cannot show the "
                                                         "upload (HEIC)")


class PhotoScore(BaseModel):
    model_config = ConfigDict(extra="allow")
    recognition: Recognition
    case: Optional[dict[str, Any]] = Field(description="the table built from the photo and the context; null when "
                                                       "they make none (result.error says why: no-winner, "
                                                       "no-winning-tile, winner-not-in-photo, no-tiles)")
    result: dict[str, Any] = Field(description="the scores, or {error: {code, message}} when no table could be built "
                                               "or the rules engine refuses the one built")


class Health(BaseModel):
    model_config = ConfigDict(extra="allow")
    status: str
    version: str
    #: "loading" while the start-up loads the models, then "ready", or "unavailable" (with
    #: recognizer_error); "not loaded" when the app runs without its start-up (a bare test client)
    recognizer: str
    #: "compiled" (the mypyc build `make serve` makes when it can) or "python"
    scoring_engine: str


class ValidationReport(BaseModel):
    """The validation report; see ``api.validation`` for every field."""

    model_config = ConfigDict(extra="allow")
    images: int
    tiles: int
    recall: Optional[float] = None
    tile_accuracy: Optional[float] = None
    exact_image_rate: Optional[float] = None
    labels_to_check: list[dict[str, Any]] = Field(
        default_factory=list, description="where a mistake in the labels explains what was found, surest first: "
                                          "{image, kind, box, label, read, confidence, found_box}; kind: unlabelled "
                                          "(a sure find no label covers), disagrees (a label read surely as another "
                                          "kind), off-target (a label off the find beside it: found_box), twice (a "
                                          "second label on a tile), nothing-found (no tile found for the label); "
                                          "read and confidence are null where nothing was read (listed last); at "
                                          "most 1,000 (labels_to_check_total counts all, labels_to_check_by_kind "
                                          "by kind; unsure_disagreements counts the readings under 0.9 left out)")
