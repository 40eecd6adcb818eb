"""Guards against a broken Qt binding (PySide6 6.12.0 drops a reference to None
on every call that returns nothing; on Python 3.11 that ends in a crash)."""

import sys

import pytest


@pytest.mark.skipif(sys.version_info >= (3, 12), reason="None is immortal from Python 3.12")
def test_void_qt_calls_keep_none_alive(qapp):
    from PySide6.QtGui import QFont
    f = QFont()
    before = sys.getrefcount(None)
    for _ in range(1000):
        f.setBold(True)
    assert abs(sys.getrefcount(None) - before) < 50  # a broken binding gives -1000
