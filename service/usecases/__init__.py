"""The application layer: every use case of the service, on ports.

Creating and acting (``games``), automatic work (``automation``), the lobby,
proposals (rewind and fork), play by post, the audit, queries (the log as one
seat may see it) and the game index. The HTTP API, the workers and the
command line call these and nothing below them. Nothing here imports Redis,
rq or Flask, even indirectly: what the use cases need from the outside world
they name as ports (``ports``), and ``service.wiring`` plugs in the adapters.
"""
