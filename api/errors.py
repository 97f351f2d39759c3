"""The service's error model: every failure is JSON ``{"code", "message"}`` with a 4xx/5xx status.

Handlers here turn our own :class:`ApiError`, FastAPI's request-validation errors and Starlette's
HTTP errors into that one shape, so a client never has to parse an HTML error page or a
framework-specific structure.
"""

from __future__ import annotations

import logging

from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse
from pydantic import BaseModel
from starlette.exceptions import HTTPException as StarletteHTTPException

log = logging.getLogger("mjscore.api")


class ErrorBody(BaseModel):
    """What every error response carries."""

    code: str
    message: str


class ApiError(StarletteHTTPException):
    """A request we refuse, with a stable machine-readable ``code`` and a human ``message``.

    It subclasses Starlette's HTTPException so FastAPI re-raises it unchanged even when it is
    raised while the request body is still being parsed (e.g. by the upload size limit).
    """

    def __init__(self, status: int, code: str, message: str):
        super().__init__(status_code=status, detail=message)
        self.code = code
        self.message = message


_STATUS_CODES = {
    400: "bad-request",
    401: "unauthorized",
    403: "forbidden",
    404: "not-found",
    405: "method-not-allowed",
    406: "not-acceptable",
    408: "request-timeout",
    411: "length-required",
    413: "payload-too-large",
    415: "unsupported-media-type",
    422: "invalid-request",
    429: "too-many-requests",
    503: "busy",
}


def error_response(status: int, code: str, message: str, headers: dict | None = None) -> JSONResponse:
    return JSONResponse({"code": code, "message": message}, status_code=status, headers=headers)


#: the names pydantic gives the plain types a union tried, in an error's path
_SCALAR_TAGS = frozenset(("str", "int", "float", "bool", "none", "bytes", "list", "dict", "tuple"))


def _is_type_tag(part) -> bool:
    """A place in an error's path that names a type a union tried (Table, list[...], str), not a field."""
    return isinstance(part, str) and (part == "body" or "[" in part or part[:1].isupper()
                                      or part.startswith("constrained") or part in _SCALAR_TAGS)


def describe_errors(errors: list[dict], body=None) -> str:
    """Pydantic's errors in a line: each where (its fields and list places) and what; when the
    body could be one table or a list of them, only the errors of the shape sent."""
    shaped = [e for e in errors if len(e.get("loc", ())) > 1 and _is_type_tag(e["loc"][1])]
    if shaped and body is not None:
        sent = "list[" if isinstance(body, list) else "Table"
        errors = [e for e in shaped if str(e["loc"][1]).startswith(sent)] or errors
    said: dict[str, list[str]] = {}  # where -> what, each said once (a union's tries: "... or ...")
    for err in errors:
        where = ".".join(str(p) for p in err.get("loc", ()) if not _is_type_tag(p)) or "body"
        what = said.setdefault(where, [])
        if err.get("msg", "invalid") not in what:
            what.append(err.get("msg", "invalid"))
    parts = [f"{where}: {' or '.join(what)}" for where, what in said.items()]
    shown = parts[:5] + ([f"and {len(parts) - 5} more"] if len(parts) > 5 else [])
    return "; ".join(shown) or "the request is not valid"


def _describe_validation(exc: RequestValidationError) -> str:
    return describe_errors(list(exc.errors()), getattr(exc, "body", None))


def install_error_handlers(app: FastAPI) -> None:
    @app.exception_handler(ApiError)
    async def _api_error(_: Request, exc: ApiError) -> JSONResponse:
        return error_response(exc.status_code, exc.code, exc.message, getattr(exc, "headers", None))

    @app.exception_handler(StarletteHTTPException)
    async def _http_error(_: Request, exc: StarletteHTTPException) -> JSONResponse:
        code = _STATUS_CODES.get(exc.status_code, "http-error")
        message = exc.detail if isinstance(exc.detail, str) else code.replace("-", " ")
        if message == "There was an error parsing the body":  # FastAPI's words for a body json.loads refused
            code, message = "invalid-json", ("the body could not be read as JSON: it is not UTF-8 text, "
                                             "or it is nested too deeply")
        return error_response(exc.status_code, code, message, getattr(exc, "headers", None))

    @app.exception_handler(RequestValidationError)
    async def _validation_error(_: Request, exc: RequestValidationError) -> JSONResponse:
        bad_json = next((e for e in exc.errors() if e.get("type") == "json_invalid"), None)
        if bad_json is not None:
            detail = (bad_json.get("ctx") or {}).get("error", "JSON decode error")
            return error_response(400, "invalid-json", f"the body is not valid JSON ({detail})")
        return error_response(422, "invalid-request", _describe_validation(exc))

    @app.exception_handler(Exception)
    async def _unexpected(request: Request, exc: Exception) -> JSONResponse:
        log.exception("unexpected error on %s %s", request.method, request.url.path)
        return error_response(500, "internal-error", "the server failed on this request; it is logged")
