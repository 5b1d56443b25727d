"""The HTTP API: a Flask app factory and a flask-smorest Api."""

from service.api.app import create_app

__all__ = ["create_app"]
