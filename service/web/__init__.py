"""The web pages: a lobby and a table, plain HTML, CSS and JavaScript modules.

They are served by the service but are clients of its public REST API like
any other (they read and write games only through /games…), so they are
also the reference client a third-party developer can read: no build step,
no framework, nothing fetched from another site. See ``service.web.pages``.
"""

from service.web.pages import blp

__all__ = ["blp"]
