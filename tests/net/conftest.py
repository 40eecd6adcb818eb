"""A real `tabletop serve` process on 127.0.0.1 for each test that asks for one."""

from __future__ import annotations

import contextlib
import os
import re
import subprocess
import sys

import pytest

from tests.helpers import ROOT


class ServerProcess:
    def __init__(self, folder):
        self.folder = folder
        self.proc = None
        self.port = None
        self.extra: list[str] = []  # more options for `tabletop serve`
        self.scheme = "ws"
        self.line = ""  # the line it started with
        self.files: int | None = None  # its open-file limit, soft and hard, when set

    def start(self, port: int = 0) -> str:
        env = dict(os.environ, PYTHONPATH=str(ROOT))
        files = self.files

        def limit() -> None:
            import resource
            resource.setrlimit(resource.RLIMIT_NOFILE, (files, files))
        self.proc = subprocess.Popen(
            [sys.executable, "-m", "tabletop", "--data-dir", str(self.folder), "serve",
             "--host", "127.0.0.1", "--port", str(port), *self.extra],
            cwd=ROOT, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
            preexec_fn=limit if files is not None else None)
        line = self.proc.stdout.readline()  # "tabletop server listening on ws://HOST:PORT ..."
        self.line = line
        found = re.search(r"listening on (wss?)://127\.0\.0\.1:(\d+)", line)
        assert found, line + self.proc.stderr.read()
        self.scheme, self.port = found.group(1), int(found.group(2))
        return self.url

    @property
    def url(self) -> str:
        return f"{self.scheme}://127.0.0.1:{self.port}"

    def kill(self) -> None:
        if self.proc is not None:
            if self.proc.poll() is None:
                self.proc.kill()
            self.proc.wait(timeout=10)
            self.proc.stdout.close()
            self.proc.stderr.close()

    def alive(self) -> bool:
        return self.proc is not None and self.proc.poll() is None


@pytest.fixture
def server(tmp_path):
    s = ServerProcess(tmp_path / "data")
    s.start()
    yield s
    s.kill()


@pytest.fixture
def clients():
    made = []

    def make(url):
        from tabletop.net.client import Client
        c = Client(url, timeout=10)
        made.append(c)
        return c
    yield make
    for c in made:
        with contextlib.suppress(Exception):
            c.close()
