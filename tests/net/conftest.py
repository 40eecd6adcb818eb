"""A real `tabletop serve` process on 127.0.0.1 for each test that asks for one."""

from __future__ import annotations

import os
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

    def start(self, port: int = 0) -> str:
        env = dict(os.environ, PYTHONPATH=str(ROOT))
        self.proc = subprocess.Popen(
            [sys.executable, "-m", "tabletop", "--data-dir", str(self.folder), "serve",
             "--host", "127.0.0.1", "--port", str(port), *self.extra],
            cwd=ROOT, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        line = self.proc.stdout.readline()  # "tabletop server listening on ws://HOST:PORT ..."
        assert "listening on ws://127.0.0.1:" in line, line + self.proc.stderr.read()
        self.port = int(line.split("ws://127.0.0.1:")[1].split()[0])
        return self.url

    @property
    def url(self) -> str:
        return f"ws://127.0.0.1:{self.port}"

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
        try:
            c.close()
        except Exception:
            pass
