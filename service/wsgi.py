"""The WSGI entry point for gunicorn: ``service.wsgi:app`` (settings: ``service.gunicorn_conf``)."""

from __future__ import annotations

import os
from collections.abc import Iterable
from typing import TYPE_CHECKING

from service import wiring
from service.api import create_app
from service.api.settings import api_settings, rate_limits

if TYPE_CHECKING:
    from _typeshed.wsgi import StartResponse, WSGIEnvironment

#: Seconds a client has to send a request's body, and to take each piece of
#: an answer (a stream's next message included), before its connection is cut.
CLIENT_TIMEOUT = float(os.environ.get("HOLOTAPE_CLIENT_TIMEOUT_SECONDS") or 30)

_settings = api_settings()
_api = create_app(wiring.build(rate_limits=rate_limits(_settings)), _settings)
wiring.freeze_start_up()


def app(environ: WSGIEnvironment, start_response: StartResponse) -> Iterable[bytes]:
    # A slow client (a body trickled a byte at a time, a stream it never
    # reads) then holds a greenlet for CLIENT_TIMEOUT at most, not for ever.
    sock = environ.get("gunicorn.socket")
    if sock is not None:
        sock.settimeout(CLIENT_TIMEOUT)
    return _api(environ, start_response)
