"""Text from files made safe: for HTML (the window's rich text) and for a terminal."""

import html

from hypothesis import given
from hypothesis import strategies as st

from tabletop.textsafe import html_text, terminal


@given(st.text())
def test_html_text_escapes_as_the_standard_library_does(text):
    assert html_text(text) == html.escape(text)


def test_html_text_leaves_no_markup():
    assert html_text('<b onclick="x">Fire & Ice</b>\'') == \
        "&lt;b onclick=&quot;x&quot;&gt;Fire &amp; Ice&lt;/b&gt;&#x27;"


def test_terminal_shows_control_characters_as_escapes():
    assert terminal("a\x1b[2Jb\u202ec\td\n") == "a\\u001b[2Jb\\u202ec\td\n"
