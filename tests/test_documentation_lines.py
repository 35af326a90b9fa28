"""What an answer quotes as a source's documentation: the author's prose, never an encoding or editor line.

Older Python files open on ``# -*- coding: utf-8 -*-`` above the module docstring (ckan's ``ckan/lib/signals.py``);
the answer said "Its documentation says: “-*- coding: utf-8 -*-”", which is false: that line tells the interpreter
how the file is encoded. Chunked by the real chunker, as the index does.
"""

from __future__ import annotations

from codeqa.answer.explanation.code.outline import summary
from codeqa.chunk import chunk_file
from codeqa.records import SourceFile

SIGNALS = '''# -*- coding: utf-8 -*-
"""Contains ``ckan`` and ``ckanext`` namespaces for signals as well as a bunch
of predefined core-level signals.

Check :doc:`signals` for extra details.

"""
from __future__ import annotations

import flask
import blinker

ckan = blinker.Namespace()
ckanext = blinker.Namespace()

request_started = ckan.signal(u"request_started")
"""This signal is sent when the application starts processing a request."""

flask.signals.request_started.connect(request_started.send)

failed_login = ckan.signal(u"failed_login")
"""This signal is sent after failed login attempt."""
'''

NO_DOCSTRING = """# -*- coding: utf-8 -*-
# vim: set fileencoding=utf-8 :
import sys

total = sum(int(arg) for arg in sys.argv[1:])
print(total)
"""


def _module_chunk(path: str, text: str):
    chunks = chunk_file(SourceFile(path, "python", text, len(text)))
    return next(chunk for chunk in chunks if chunk.start_line == 1)


def test_the_module_docstring_below_an_encoding_line_is_the_documentation():
    said = summary(_module_chunk("ckan/lib/signals.py", SIGNALS))
    assert "coding" not in said
    assert said.startswith("Contains ``ckan`` and ``ckanext`` namespaces for signals")


def test_a_file_with_only_encoding_and_editor_lines_has_no_documentation():
    assert summary(_module_chunk("bin/total.py", NO_DOCSTRING)) == ""
