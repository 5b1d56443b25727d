"""Whether this process has been told to stop: set by gunicorn's SIGTERM (``service.gunicorn_conf``).

Its own module, free of the app, because the gunicorn settings import it in
the master process, before a worker forks and patches for gevent.
"""

from __future__ import annotations

import threading

#: Set once the process is stopping: what waits open (event streams) ends now, so its clients
#: reconnect to a process that stays instead of holding this one for its graceful timeout.
STOPPING = threading.Event()
