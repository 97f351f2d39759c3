"""The CPU-heavy work behind the endpoints, run off the event loop in a bounded thread pool.

``Workers`` runs at most ``RECOGNITION_WORKERS`` jobs at once and lets at most
``RECOGNITION_QUEUE`` more wait; past that a request is told 503 (busy) at once instead of piling
up memory.  The ONNX classifier is a single process-wide session (``default_classifier``),
loaded once at start-up and shared by the threads: onnxruntime's ``InferenceSession.run`` is
thread-safe.
"""

from __future__ import annotations

import asyncio
import io
import logging
import tempfile
import threading
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path, PurePosixPath
from typing import Any, Callable

from api.errors import ApiError
from api.images import api_error_for, encode_data_url, open_header
from api.limits import MAX_VALIDATE_IMAGES, RECOGNITION_QUEUE, RECOGNITION_WORKERS

log = logging.getLogger("mjscore.api")


class Workers:
    """A bounded thread pool with a bounded waiting line."""

    def __init__(self, workers: int = RECOGNITION_WORKERS, queue: int = RECOGNITION_QUEUE):
        self._executor = ThreadPoolExecutor(max_workers=workers, thread_name_prefix="mjscore-cpu")
        self._capacity = workers + queue
        self._pending = 0
        self._lock = threading.Lock()

    async def run(self, fn: Callable, *args) -> Any:
        with self._lock:
            if self._pending >= self._capacity:
                raise ApiError(503, "busy", "the server is busy recognising other photos; try again in a moment")
            self._pending += 1
        try:
            return await asyncio.get_running_loop().run_in_executor(self._executor, fn, *args)
        finally:
            with self._lock:
                self._pending -= 1

    def shutdown(self) -> None:
        self._executor.shutdown(wait=False, cancel_futures=True)


# --------------------------------------------------------------------------- recogniser state

_state = {"recognizer": "not loaded", "error": None}
_load_lock = threading.Lock()


def warm_up() -> str:
    """Load the classifier once (idempotent); returns a status for /healthz: "loading" while
    it runs (the app's start-up runs it in the background: a health check polled then is
    answered at once, and says the recogniser is on its way, not missing), then "ready" or
    "unavailable"."""
    if _state["recognizer"] != "ready":
        _state["recognizer"] = "loading"
    with _load_lock:
        if _state["recognizer"] == "ready":
            return "ready"
        try:
            import vision  # noqa: F401 - import cost paid here, not on the first photo
            from models.classifier import default_classifier
            from vision.localizer import default_localizer
            from vision.tile_check import default_tile_check

            default_classifier()
            default_localizer()
            default_tile_check()
            _state["recognizer"], _state["error"] = "ready", None
        except Exception as exc:  # noqa: BLE001 - the service still scores typed-in tables
            _state["recognizer"], _state["error"] = "unavailable", f"{type(exc).__name__}: {exc}"
            log.warning("recogniser not available: %s", _state["error"])
        return _state["recognizer"]


def recognizer_status() -> dict:
    return dict(_state)


def _vision():
    try:
        import vision

        return vision
    except Exception as exc:  # noqa: BLE001 - a broken install answers 503, and the log says why
        log.error("the vision package cannot be loaded: %s: %s", type(exc).__name__, exc)
        raise ApiError(503, "recognizer-unavailable",
                       "photo recognition is not available: a model file is missing or broken on the server")


def _model_errors() -> tuple[type, ...]:
    """Exception types meaning 'a bundled model is missing or broken' (a server fault: 503)."""
    found = []
    for module, name in (("models.classifier", "ModelError"), ("vision.localizer", "LocalizerMissing"),
                         ("vision.tile_check", "TileCheckMissing")):
        try:
            found.append(getattr(__import__(module, fromlist=[name]), name))
        except (ImportError, AttributeError):
            pass
    return tuple(found)


#: the annotated photo's long side, in pixels: drawn at this size, not the photo's
ANNOTATED_SIDE = 1600


def upload_name(filename: str | None) -> str:
    """The name an upload is given back under (its file name, without folders, at most 120
    characters; "image" when it came with none): a photo's recognition and the table built from
    it say which photo they are."""
    name = PurePosixPath((filename or "").replace("\\", "/")).name
    name = "".join(ch for ch in name if ch.isprintable())[:120].strip()
    return name if name.strip(".") else "image"  # ("." and ".." name no photo)


def _recognize(data: bytes, camera_seat: str, keep_photo: bool, name: str | None = None):
    """Recognise an upload: its header is checked here (type, size, pixel count: api.images),
    then vision decodes it (a JPEG by libjpeg-turbo, big ones at a DCT reduction, its first look
    overlapping the full decode) and reads it."""
    open_header(data).close()
    vision = _vision()
    try:
        return vision.recognize(data, camera_seat=camera_seat, keep_photo=keep_photo, name=upload_name(name))
    except vision.ImageError as exc:
        raise api_error_for(exc) from None
    except _model_errors() as exc:
        log.error("recognition model unavailable: %s", exc)
        raise ApiError(503, "recognizer-unavailable",
                       "photo recognition is not available: a model file is missing or broken on the server")


def recognition_json(recognition, annotate: bool, photo: bool = False) -> dict:
    """The recognition as the API answers it; `annotate`: with the photo drawn on, `photo`: with
    the photo itself (both need recognize(keep_photo=True))."""
    out = dict(recognition.to_json())
    out.setdefault("warnings", [])
    # for each warning its tiles and its kind (none known: none)
    out.setdefault("warning_tiles", [[] for _ in out["warnings"]])
    out.setdefault("warning_kinds", ["" for _ in out["warnings"]])
    if annotate:
        out["annotated_image"] = annotated_data_url(recognition.photo, recognition.photo_scale, out.get("tiles", []))
    if photo:
        out["photo_image"] = encode_data_url(recognition.photo, max_side=ANNOTATED_SIDE)
    return out


def annotated_data_url(photo, photo_scale: float, tiles: list[dict]) -> str:
    """The photo with its tiles drawn on it, as a JPEG data URL ANNOTATED_SIDE pixels long: the
    photo is shrunk first and the tiles drawn at that size (drawing on a 12 MP photo and then
    shrinking it took longer than recognising it)."""
    from api.annotate import draw_recognition
    from api.images import shrink

    small = shrink(photo, ANNOTATED_SIDE)
    to_pixels = small.shape[1] / photo.shape[1] / photo_scale  # original pixels -> pixels of the shrunk photo
    drawn = [dict(t, box=[v * to_pixels for v in t["box"]]) for t in tiles]
    return encode_data_url(draw_recognition(small, drawn), max_side=ANNOTATED_SIDE)


def recognize_upload(data: bytes, camera_seat: str, annotate: bool = True, photo: bool = False,
                     name: str | None = None) -> dict:
    """Upload bytes -> the recognition JSON (tiles, seats, warnings, annotated image, and with
    `photo` the photo itself, for a browser that cannot show the upload: HEIC); `name`: the
    upload's file name, given back as its "image"."""
    return recognition_json(_recognize(data, camera_seat, annotate or photo, name), annotate, photo)


def score_photo(data: bytes, context: dict, annotate: bool = True, name: str | None = None) -> dict:
    """Upload bytes + what the photo cannot show -> recognition, the table built, and its scores.
    When the photo and the context make no table (no winner named and none lying sideways, the
    winning tile not in the winner's hand, no tiles), `case` is None and `result` holds the
    reason as the engine's refusals do: the recognition comes back either way, so the work of
    reading the photo is not lost and the table can be corrected and sent to /api/v1/score."""
    from scoring import score_table

    vision = _vision()
    recognition = _recognize(data, context.get("camera_seat", "E"), annotate, name)
    try:
        case = vision.build_case(recognition, context)
    except (ValueError, KeyError) as exc:  # vision.CaseError (a ValueError) names what is missing
        code = getattr(exc, "code", None)
        error = {"code": code if isinstance(code, str) else "invalid-context",
                 "message": str(getattr(exc, "message", None) or exc)}
        return {"recognition": recognition_json(recognition, annotate), "case": None, "result": {"error": error}}
    # the recognition as the case was built from it: build_case may have read a tile again (the
    # winner's hand mended, vision.complete), and its warning says so
    return {"recognition": recognition_json(recognition, annotate), "case": case, "result": score_table(case)}


def validate_zip(data: bytes, want_html: bool, filename: str | None = None) -> dict | str:
    """A zip of a labelled set -> the validation report (JSON data or the HTML page).  The set
    is named by the upload's file name, in the report and in any error about its labels."""
    from api.labelsets import LabelSetError, TooManyImages, load_labelset
    from api.report import html_for
    from api.validation import validate
    from api.zips import extract_zip, set_name

    name = set_name(filename)
    with tempfile.TemporaryDirectory(prefix="mjscore-validate-") as tmp:
        folder = Path(tmp) / name
        extract_zip(io.BytesIO(data), folder)
        try:
            labelset = load_labelset(folder, max_images=MAX_VALIDATE_IMAGES)
        except TooManyImages as err:
            raise ApiError(413, "too-many-images",
                           f"the set lists at least {err.count} images; at most {MAX_VALIDATE_IMAGES} per request")
        except LabelSetError as err:
            raise ApiError(422, "bad-labels", str(err))
        if len(labelset.images) > MAX_VALIDATE_IMAGES:
            raise ApiError(413, "too-many-images",
                           f"the set has {len(labelset.images)} images; at most {MAX_VALIDATE_IMAGES} per request")
        report, outcomes = validate(labelset, workers=0)
        report["dataset"] = name
        if want_html:
            return html_for(report, outcomes, {img.name: img.path for img in labelset.images})
        return report
