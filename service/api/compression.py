"""Answers compressed for clients that accept it: JSON, problem+json, the pages and their scripts and styles.

Flask-Compress does the work (a well-kept extension: gzip, Brotli and streamed
bodies, with ``Vary: Accept-Encoding``), with two things held as this service
promises them:

- the ETag stays the game's version (docs/api.md: a client sends it back as
  ``If-Match``). Flask-Compress suffixes a strong ETag with the encoding
  (``"19:gzip"``), which would break that; the ETag here names the game's
  state, not the bytes, so it is put back as it was;
- the event stream (``text/event-stream``) is never compressed: each event must
  reach the reader as it is written, not when a compressor's buffer fills.

The hook runs after every other ``after_request`` (it is registered first, and
Flask runs them in reverse), so the idempotency record keeps the plain answer.
"""

from __future__ import annotations

from flask import Flask, Response
from flask.globals import request_ctx
from flask_compress import Compress

#: What is worth compressing: the API's answers and the pages' text. Not the event stream (see above).
MIMETYPES = [
    "application/json",
    "application/problem+json",
    "text/html",
    "text/css",
    "text/javascript",
    "application/javascript",
    "application/yaml",
]


def register_compression(app: Flask) -> None:
    app.config.setdefault("COMPRESS_MIMETYPES", MIMETYPES)
    # Brotli where the browser takes it (all current ones), gzip for every other client.
    app.config.setdefault("COMPRESS_ALGORITHM", ["br", "gzip"])
    app.config.setdefault("COMPRESS_ALGORITHM_STREAMING", ["br", "deflate"])
    # The service answers conditional requests itself where it does (the static files); nothing more here.
    app.config.setdefault("COMPRESS_EVALUATE_CONDITIONAL_REQUEST", False)
    app.config["COMPRESS_REGISTER"] = False
    compress = Compress(app)
    app.extensions["compress"] = compress
    # What a client's Accept-Encoding must name for Flask-Compress to choose an algorithm: one configured, streamed
    # or not, or "any". A client naming none of them (most API clients send none, or "identity") is answered
    # without Flask-Compress's parsing and checks.
    names = {"*"}
    for setting in ("COMPRESS_ALGORITHM", "COMPRESS_ALGORITHM_STREAMING"):
        configured = app.config[setting]
        names.update(name.strip().lower() for name in (configured.split(",") if isinstance(configured, str) else configured))

    @app.after_request
    def compressed(response: Response) -> Response:
        accepted = request_ctx.request.headers.get("Accept-Encoding", "").lower()
        if not any(name in accepted for name in names):
            # Nothing here would be compressed: Flask-Compress would only add Accept-Encoding to Vary, as here.
            vary = response.headers.get("Vary")
            if not vary:
                response.headers["Vary"] = "Accept-Encoding"
            elif "accept-encoding" not in vary.lower():
                response.headers["Vary"] = f"{vary}, Accept-Encoding"
            return response
        etag = response.headers.get("ETag")
        response = compress.after_request(response)
        if etag is not None:
            response.headers["ETag"] = etag
        return response
