"""The mjscore web service: the upload page at ``/`` and the JSON API under ``/api/v1``.

Run it with ``make serve`` or ``mjscore serve`` (``uvicorn api.app:app``).  OpenAPI docs: /docs.
"""

from __future__ import annotations

import asyncio
import logging
import os
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Annotated, Any, Literal, Optional, Union

from fastapi import Body, FastAPI, File, Form, Query, Request, UploadFile
from fastapi.responses import HTMLResponse, JSONResponse, Response
from fastapi.staticfiles import StaticFiles
from fastapi_offline import FastAPIOffline
from pydantic import Field, ValidationError

from api import __version__, service
from api.errors import ApiError, ErrorBody, describe_errors, install_error_handlers
from api.images import check_content_type
from api.limits import BIG_SET_ADVICE, MAX_TABLES_PER_REQUEST, MAX_UPLOAD_BYTES, BodySizeLimit, MiB
from api.schemas import (GameRequest, GameResult, Health, PhotoScore, Recognition, Ruleset, ScoreResult, Seat, Table,
                         ValidationReport, WinBy)
from scoring.case import SETTLEMENT_FLAGS, WIN_FLAGS, WIN_FLAGS_SAID, ScoringError, check_ruleset_flags
from scoring.house import house_params
from scoring.tiles import quoted

log = logging.getLogger("mjscore.api")
STATIC = Path(__file__).parent / "static"
VERSION = __version__

_UPLOAD_ERRORS = {
    400: {"model": ErrorBody, "description": "corrupt or truncated upload"},
    413: {"model": ErrorBody, "description": "upload over 20 MB or image over 50 megapixels"},
    415: {"model": ErrorBody, "description": "not a JPEG, PNG, WebP or BMP image (or HEIC, with the server's "
                                              "optional pillow-heif)"},
    422: {"model": ErrorBody, "description": "invalid form fields"},
    503: {"model": ErrorBody, "description": "busy, or recognition not available"},
}


@asynccontextmanager
async def lifespan(app: FastAPI):
    workers = app.state.workers = service.Workers()
    # load the ONNX session once, off the event loop, before the first photo arrives
    asyncio.get_running_loop().run_in_executor(None, service.warm_up)
    yield
    workers.shutdown()  # this lifespan's own pool (tests may run several lifespans of one app)


# FastAPIOffline: the /docs and /redoc pages load Swagger UI and ReDoc from files in the package,
# not from a CDN, so the docs work on a club's machine with no internet.
app = FastAPIOffline(
    title="mjscore",
    version=VERSION,
    description="Turn a photo of a finished mahjong table into scores and payments. "
    "Every error is JSON {code, message} with a 4xx status (5xx only for server faults).",
    lifespan=lifespan,
)
install_error_handlers(app)
app.add_middleware(BodySizeLimit)


def _own_path(scope) -> str:
    """The request's path below the service's root path (`mjscore serve --root-path /mahjong`
    behind a web server that takes the prefix off: uvicorn puts it back in front of the path,
    as ASGI has it)."""
    path, root = scope["path"], scope.get("root_path", "").rstrip("/")
    return (path[len(root):] or "/") if root and (path == root or path.startswith(root + "/")) else path


@app.middleware("http")
async def security_headers(request, call_next):
    path = _own_path(request.scope)  # before the routes run: a mount changes the scope's root path
    response = await call_next(request)
    response.headers.setdefault("X-Content-Type-Options", "nosniff")
    response.headers.setdefault("Referrer-Policy", "no-referrer")
    if path == "/" or path.startswith("/static/"):
        response.headers.setdefault(
            "Content-Security-Policy",
            "default-src 'self'; img-src 'self' data: blob:; style-src 'self'; script-src 'self'; "
            "connect-src 'self'; object-src 'none'; base-uri 'none'; frame-ancestors 'none'",
        )
        # the page and its files are asked for again each time (a 304 when unchanged: their ETag
        # and Last-Modified), never reused unasked: after an upgrade a browser would otherwise run
        # an old index.html, or mix old script modules with new ones that import what they lack
        response.headers.setdefault("Cache-Control", "no-cache")
    return response


def _workers() -> service.Workers:
    workers = getattr(app.state, "workers", None)
    if workers is None:  # app used without its lifespan (e.g. a bare ASGI test client)
        workers = app.state.workers = service.Workers()
    return workers


async def _read_upload(upload: UploadFile, what: str = "image") -> bytes:
    data = await upload.read(MAX_UPLOAD_BYTES + 1)
    if len(data) > MAX_UPLOAD_BYTES:
        advice = BIG_SET_ADVICE if what == "archive" else ""
        raise ApiError(413, "payload-too-large", f"the {what} is larger than {MAX_UPLOAD_BYTES // MiB} MB{advice}")
    if not data:
        raise ApiError(400, "empty-upload", f"the uploaded {what} is empty (0 bytes)")
    return data


# --------------------------------------------------------------------------- page and health

_static = StaticFiles(directory=STATIC)


@app.api_route("/", methods=["GET", "HEAD"], include_in_schema=False)
async def index(request: Request) -> Response:
    """The page, answered as its static files are: a 304 when the browser's copy is current."""
    page = STATIC / "index.html"
    return _static.file_response(page, await asyncio.to_thread(os.stat, page), request.scope)


app.mount("/static", _static, name="static")


@app.head("/healthz", include_in_schema=False)  # uptime monitors ask with HEAD
@app.get("/healthz", response_model=Health, tags=["service"])
async def healthz() -> dict:
    """Liveness, whether the photo recogniser is loaded, and which rules engine serves."""
    from scoring import COMPILED

    status = service.recognizer_status()
    out = {"status": "ok", "version": VERSION, "recognizer": status["recognizer"],
           "scoring_engine": "compiled" if COMPILED else "python"}
    if status["error"]:
        out["recognizer_error"] = status["error"]
    return out


# --------------------------------------------------------------------------- scoring

#: in a list, an item that is no valid Table (an object missing a field, a string, a number) is
#: refused in its place, not with the whole list (a Table first, as a single table is read:
#: pydantic's default "smart" union would take any object for the catch-all when a field needs
#: converting, 1 for true)
TableOrTables = Union[Table, Annotated[list[Annotated[Union[Table, Any], Field(union_mode="left_to_right")]],
                                       Field(min_length=1, max_length=MAX_TABLES_PER_REQUEST)]]


def _refused(item: Any) -> dict:
    """The error in its place of a listed item that is no valid Table (as a single one would get)."""
    if not isinstance(item, dict):
        what = {str: "a string", bool: "true or false", int: "a number", float: "a number", list: "a list",
                type(None): "null"}.get(type(item), "that")
        return {"error": {"code": "invalid-request", "message": f"a table is a JSON object, not {what}"}}
    try:
        Table.model_validate(item)
    except ValidationError as exc:
        return {"error": {"code": "invalid-request", "message": describe_errors(exc.errors())}}
    return {"error": {"code": "invalid-request", "message": "the table is not valid"}}


@app.post(
    "/api/v1/score",
    response_model=Union[ScoreResult, list[ScoreResult]],
    tags=["scoring"],
    responses={400: {"model": ErrorBody, "description": "the body is not JSON"},
               422: {"model": ErrorBody, "description": "the table is not valid (the rules engine's error code)"},
               413: {"model": ErrorBody, "description": "body over the size limit"}},
)
def score(tables: Annotated[TableOrTables, Body()]):
    """Score a table, or a list of tables, in the vectors.json case format (docs/case-format.md in the repository).

    One table: its result as ``mjscore score`` prints it, or 422 ``{code, message}`` when the rules
    engine refuses it.  A list: a list of results in the same order, where a refused table is
    ``{"error": {code, message}}`` in its place (the others are still scored).
    """
    from scoring import score_table

    # a plain function: FastAPI runs it in its thread pool, so a list of 200 tables being scored
    # does not hold up the event loop (and every other request) meanwhile
    if isinstance(tables, list):
        return [score_table(t.to_case()) if isinstance(t, Table) else _refused(t) for t in tables]
    result = score_table(tables.to_case())
    if "error" in result:
        error = result["error"]
        return JSONResponse({"code": error["code"], "message": error["message"]}, status_code=422)
    return result



@app.post(
    "/api/v1/game",
    response_model=GameResult,
    tags=["scoring"],
    responses={400: {"model": ErrorBody, "description": "the body is not JSON"},
               422: {"model": ErrorBody, "description": "the game or one of its hands is not valid (the message names "
                                                        "the hand)"},
               413: {"model": ErrorBody, "description": "body over the size limit"}},
)
def game(body: GameRequest):
    """A game's running totals: each hand, in order, settled among the players by name, with East's
    rotation (East keeps the deal while he wins or no one wins, else the player who was South
    becomes East) and the wind of the round, and who sits where at the next hand.  A hand drawn
    with no winner and no settlement changes nothing: there is nothing to send for it (Part II's
    wash and penalties are sent as tables of their `kind`, and settle as the engine says).  The
    server keeps nothing; the page keeps the game in the browser and sends it whole."""
    from scoring.game import play_out

    try:
        return play_out(body.ruleset, list(body.players), [t.to_case() for t in body.hands])
    except ScoringError as err:
        return JSONResponse({"code": err.code, "message": str(err)}, status_code=422)


# --------------------------------------------------------------------------- photos

@app.post("/api/v1/recognize", response_model=Recognition, tags=["photos"], responses=_UPLOAD_ERRORS)
async def recognize(
    image: Annotated[UploadFile, File(description="photo of the table: JPEG, PNG, WebP, BMP (HEIC when the server has "
                                                 "pillow-heif), at most 20 MB")],
    camera_seat: Annotated[Seat, Form(description="the wind of the player at the photo's bottom edge")] = "E",
    annotate: Annotated[bool, Form(description="include the photo with every tile outlined")] = True,
    photo: Annotated[bool, Form(description="include the photo itself, upright and at most 1600 pixels long, "
                                            "as a JPEG (for a page that cannot show the upload: HEIC)")] = False,
):
    """Find every tile: its box, code, confidence and seat; each seat's hand; warnings."""
    check_content_type(image.content_type)
    data = await _read_upload(image)
    return await _workers().run(service.recognize_upload, data, camera_seat, annotate, photo, image.filename)


@app.post("/api/v1/photo/score", response_model=PhotoScore, tags=["photos"], responses=_UPLOAD_ERRORS)
async def photo_score(
    image: Annotated[UploadFile, File(description="photo of the table: JPEG, PNG, WebP, BMP (HEIC when the server has "
                                                 "pillow-heif), at most 20 MB")],
    ruleset: Annotated[Ruleset, Form()] = "pung-chow",
    camera_seat: Annotated[Seat, Form(description="the wind at the photo's bottom edge, or whose tiles alone "
                                                  "the photo shows, whichever way it is turned")] = "E",
    round_wind: Annotated[Optional[Seat], Form(description="wind of the round (not used by pung-chow)")] = None,
    winner: Annotated[Optional[Seat], Form(
        description="who went Mah-Jongg (default: the seat whose winning tile lies sideways, or the one "
                    "player's when one player's tiles alone are in the photo, unless they hold 13)")] = None,
    win_by: Annotated[WinBy, Form()] = "discard",
    flags: Annotated[str, Form(description=f"the winner's flags, comma-separated: {', '.join(WIN_FLAGS)}; each "
                                           f"ruleset scores its own ({WIN_FLAGS_SAID}) and refuses another")] = "",
    winning_tile: Annotated[Optional[str], Form(description="the tile that completed the hand, e.g. 5p (default: the winner's tile lying sideways, or by itself apart from the sets)")] = None,
    limit: Annotated[Optional[int], Form(ge=0, description=(
        "the most a hand scores: pung-chow-limit 300 (400 with a bonus of 20), 0 for the book's game with "
        "no limit; classical 1000 (as the web page)"))] = None,
    mj_bonus: Annotated[Optional[int], Form(description="pung-chow-limit's Mah-Jongg bonus: 10 (the default) or 20")] = None,
    annotate: Annotated[bool, Form()] = True,
):
    """Recognise the photo, build the table with the context the photo cannot show, score it.

    ``result`` holds the scores, or ``{"error": {code, message}}`` when the photo and the fields make
    no table (``case`` is then null: no winner named and none shown by a sideways tile, no winning
    tile named, lying sideways or laid by itself apart, a winning tile that is no tile, the winner
    not in the photo, no tiles) or the rules engine refuses the table built: the recognition comes back either way so it can be corrected and sent to
    /api/v1/score.
    """
    check_content_type(image.content_type)
    # settings that cannot make a table are refused before the photo is read
    flag_list = [f.strip() for f in flags.split(",") if f.strip()]
    unknown = [f for f in flag_list if f not in WIN_FLAGS]
    if unknown:
        if unknown[0] in SETTLEMENT_FLAGS:
            raise ApiError(422, "invalid-case", f"the flag {quoted(unknown[0])} marks a hand no one won (a wash or "
                                                "a false Mah-Jongg): send its case, with its kind, to /api/v1/score")
        raise ApiError(422, "invalid-case", f"unknown flag {quoted(unknown[0])} (flags: {', '.join(WIN_FLAGS)})")
    try:
        check_ruleset_flags(ruleset, flag_list)  # (the engine would refuse the table after the photo was read)
        params = house_params(ruleset, limit, mj_bonus)
    except ScoringError as exc:
        raise ApiError(422, exc.code, exc.message) from None
    data = await _read_upload(image)
    context = {
        "ruleset": ruleset,
        "camera_seat": camera_seat,
        "round_wind": None if ruleset == "pung-chow" else (round_wind or "E"),
        "winner": winner,
        "win_by": win_by,
        "flags": flag_list,
        "params": params,
    }
    if winning_tile:
        context["winning_tile"] = winning_tile.strip()
    return await _workers().run(service.score_photo, data, context, annotate, image.filename)


# --------------------------------------------------------------------------- validation

_ZIP_TYPES = {"application/zip", "application/x-zip-compressed", "application/x-zip", "application/octet-stream", ""}


@app.post(
    "/api/v1/validate",
    response_model=ValidationReport,
    tags=["validation"],
    responses={**_UPLOAD_ERRORS, 200: {"content": {"text/html": {}}, "description": "the report"}},
)
async def validate(
    archive: Annotated[UploadFile, File(description="zip of a labelled set: our JSON labels, YOLO or COCO")],
    format: Annotated[Literal["json", "html"], Query(description="json data or the HTML page")] = "json",
):
    """Recognise every photo of a labelled set and measure recall, accuracy and confusions."""
    declared = (archive.content_type or "").split(";")[0].strip().lower()
    if declared not in _ZIP_TYPES:
        raise ApiError(415, "unsupported-media-type", f"the archive was sent as {declared!r}; send a .zip")
    data = await _read_upload(archive, "archive")
    result = await _workers().run(service.validate_zip, data, format == "html", archive.filename)
    if format == "html":
        return HTMLResponse(result)
    return result
