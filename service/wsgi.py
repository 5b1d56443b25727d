"""The WSGI entry point for gunicorn: ``service.wsgi:app``."""

from service import wiring
from service.api import create_app
from service.api.settings import api_settings, parse_limit

_settings = api_settings()
app = create_app(wiring.build(rate_limit=parse_limit(str(_settings["RATE_LIMIT"]))), _settings)
