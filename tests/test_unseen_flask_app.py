"""Sentences read on an app no rule was made on (ckan, a real-size Flask app, asked the seed's three questions):
each class on the real lines that made it, answered end to end by the extractive path.

- a line after a nested function, back in the function that holds both, was named after the nested one:
  "``error_handler`` sends ``code`` … errors to ``error_handler``" for ``_register_error_handler``'s loop;
- a registration in a loop over a named collection said the loop variable: "sends ``code`` and ``Exception``
  errors" (the collection, ``default_exceptions``, names what the loop registers);
- an outcome quoted from the second line of a statement: "answers with ``'error_document_template.html',
  extra_vars), e.code or 500``", half of ``return base.render(…)``;
- a status number kept in a value said as the answer: "answers with ``extra_vars = {u'code': [500], …}``".
"""

from __future__ import annotations

from codeqa.answer.context import AnswerContext
from codeqa.answer.explanation.code.linenames import holder_at, name_at
from codeqa.answer.explanation.said.extractive import extractive_answer
from codeqa.chunk import chunk_file
from codeqa.records import Hit, SourceFile

FLASK_APP = """import sys

from flask import Flask
from werkzeug.exceptions import default_exceptions, HTTPException

from ckan.lib import base

log = __import__("logging").getLogger(__name__)


def _register_error_handler(app: Flask):
    u\'\'\'Register error handler\'\'\'

    def error_handler(e: Exception) -> tuple[str, int]:
        debug = app.config.get('debug')
        if isinstance(e, HTTPException):
            if debug:
                log.debug(e, exc_info=sys.exc_info)  # type: ignore
            else:
                log.info(e)

            extra_vars = {
                u'code': e.code,
                u'content': e.description,
                u'name': e.name,
            }
            return base.render(
                'error_document_template.html', extra_vars), e.code or 500

        log.error(e, exc_info=sys.exc_info)  # type: ignore
        extra_vars = {u'code': [500], u'content': u'Internal server error'}
        return base.render(u'error_document_template.html', extra_vars), 500

    for code in default_exceptions:
        app.register_error_handler(code, error_handler)
    if not app.debug and not app.testing:
        app.register_error_handler(Exception, error_handler)
"""
HANDLER_AT = FLASK_APP.split("\n").index("def _register_error_handler(app: Flask):") + 1


def _chunks():
    return chunk_file(SourceFile("ckan/config/middleware/flask_app.py", "python", FLASK_APP, len(FLASK_APP)))


def _handler_chunk():
    return next(chunk for chunk in _chunks() if chunk.start_line == HANDLER_AT)


def _line(text: str) -> int:
    return FLASK_APP.split("\n").index(text) + 1


def test_a_line_after_a_nested_function_is_named_after_the_function_holding_both():
    chunk = _handler_chunk()
    registration = _line("        app.register_error_handler(code, error_handler)")
    inside = _line("        log.error(e, exc_info=sys.exc_info)  # type: ignore")
    assert holder_at(chunk, registration) == "_register_error_handler"
    assert name_at(chunk, registration) == "_register_error_handler"
    assert holder_at(chunk, inside) == "error_handler"  # the nested function's own lines stay its own


def test_an_error_answer_names_the_collection_and_quotes_whole_answers_only():
    chunks = _chunks()
    hits = [Hit(chunk, 1.0 - n / 10, chunk.id) for n, chunk in enumerate(chunks)]
    context = AnswerContext.from_chunks(chunks, hits)
    answer = extractive_answer("What happens when an API request fails?", hits, context=context)
    opening = answer.split("\n")[0]
    assert "`_register_error_handler` (`ckan/config/middleware/flask_app.py:" in opening
    assert "sends `default_exceptions` and `Exception` errors to `error_handler`" in opening
    assert "`code`" not in opening
    assert "answers with `'error_document_template.html'" not in answer  # half a statement
    assert "answers with `extra_vars" not in answer  # a value holding a status is no answer
    assert ": `return base.render(u'error_document_template.html', extra_vars), 500`" in opening  # as written
