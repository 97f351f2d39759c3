"""Resource limits of the service, and the ASGI middleware that caps request bodies while they stream.

The body cap is enforced twice: a declared ``Content-Length`` above the cap is refused before a
byte is read, and the bytes actually received are counted as they arrive (a chunked upload or a
lying header cannot get past it).  Nothing larger than the cap is ever buffered.
"""

from __future__ import annotations

import json

from api.errors import ApiError
from vision.io import MIN_SIDE

MiB = 1024 * 1024

#: Largest upload accepted (an image or a zip of a labelled set).
MAX_UPLOAD_BYTES = 20 * MiB
#: Multipart framing and form fields around the file.
_FORM_OVERHEAD = 256 * 1024
MAX_BODY_BYTES = MAX_UPLOAD_BYTES + _FORM_OVERHEAD
#: Largest image accepted, in pixels (width x height), checked from the header before decoding.
MAX_IMAGE_PIXELS = 50_000_000
#: Smallest image side that can hold a readable tile (vision's own limit, checked from the header).
MIN_IMAGE_SIDE = MIN_SIDE
#: Zip archives of labelled sets.
MAX_ZIP_ENTRIES = 5000
MAX_ZIP_TOTAL_BYTES = 400 * MiB
MAX_ZIP_RATIO = 200  # uncompressed / compressed for one entry: beyond this it is a zip bomb
#: Images one /validate request may hold (each is recognised in turn).
MAX_VALIDATE_IMAGES = 1000
#: Tables one /score request may hold.
MAX_TABLES_PER_REQUEST = 200
#: CPU-heavy jobs (decode + recognition) running at once, and how many may wait for a slot.
RECOGNITION_WORKERS = 2
RECOGNITION_QUEUE = 32


class BodyTooLarge(ApiError):
    """Raised inside ``receive`` when the streamed body passes the cap.

    An :class:`ApiError`, so FastAPI passes it through its body parsing untouched and the error
    handler answers 413; the middleware answers itself if it surfaces anywhere else.
    """

    def __init__(self, limit: int):
        super().__init__(413, "payload-too-large", f"the request body is larger than the {limit // MiB} MB limit")


#: what a labelled set too big to upload can do instead (photos do not compress: a zip of more
#: than a few 12 MP phone photos is over the limit)
BIG_SET_ADVICE = ("; split the set into zips under that, or run `mjscore validate` on its folder, "
                  "which has no such limit")


def _too_large_body(limit: int, path: str = "") -> bytes:
    advice = BIG_SET_ADVICE if path.rstrip("/").endswith("/validate") else ""
    return json.dumps(
        {
            "code": "payload-too-large",
            "message": f"the request body is larger than the {limit // MiB} MB limit{advice}",
        }
    ).encode()


class BodySizeLimit:
    """Pure ASGI middleware: refuse HTTP request bodies over ``limit`` bytes with a JSON 413."""

    def __init__(self, app, limit: int = MAX_BODY_BYTES):
        self.app = app
        self.limit = limit

    async def __call__(self, scope, receive, send):
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        declared = None
        for name, value in scope.get("headers", ()):
            if name == b"content-length":
                try:
                    declared = int(value)
                except ValueError:
                    await self._reply(send, 400, b'{"code":"bad-request","message":"invalid Content-Length"}')
                    return
        if declared is not None and declared > self.limit:
            await self._reply(send, 413, _too_large_body(self.limit, scope.get("path", "")))
            return

        received = 0
        started = False

        async def limited_receive():
            nonlocal received
            message = await receive()
            if message["type"] == "http.request":
                received += len(message.get("body", b""))
                if received > self.limit:
                    raise BodyTooLarge(self.limit)
            return message

        async def tracking_send(message):
            nonlocal started
            if message["type"] == "http.response.start":
                started = True
            await send(message)

        try:
            await self.app(scope, limited_receive, tracking_send)
        except BodyTooLarge:
            if not started:
                await self._reply(send, 413, _too_large_body(self.limit, scope.get("path", "")))

    @staticmethod
    async def _reply(send, status: int, body: bytes) -> None:
        await send(
            {
                "type": "http.response.start",
                "status": status,
                "headers": [
                    (b"content-type", b"application/json"),
                    (b"content-length", str(len(body)).encode()),
                    (b"connection", b"close"),
                ],
            }
        )
        await send({"type": "http.response.body", "body": body})
