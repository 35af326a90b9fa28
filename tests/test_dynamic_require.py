"""NodeBB, asked "Which database does the forum keep its data in, how is that chosen, and where are login sessions
kept?", folded `src/database/index.js` and dropped its key line, `const primaryDB = require(`./${databaseName}`);`,
as an import. A `require` whose path is computed chooses the module at run time: it is code, not an import.
"""

from __future__ import annotations

from codeqa.answer.explanation.code.keylines import IMPORT, question_terms
from codeqa.answer.explanation.sources.choose import source_lines
from codeqa.answer.explanation.sources.fold import folded_lines
from codeqa.records import Chunk
from codeqa.retrieve.question import Question

# src/database/index.js:1-14 (NodeBB)
DATABASE_INDEX = """'use strict';

const nconf = require('nconf');

const databaseName = nconf.get('database');
const winston = require('winston');

if (!databaseName) {
	winston.error(new Error('Database type not set! Run ./nodebb setup'));
	process.exit();
}

const primaryDB = require(`./${databaseName}`);
const utils = require('../utils');
"""
QUESTION = "Which database does the forum keep its data in, how is that chosen, and where are login sessions kept?"


def test_a_require_of_a_computed_path_is_no_import() -> None:
    assert IMPORT.match("const primaryDB = require(`./${databaseName}`);") is None
    assert IMPORT.match("const nconf = require('nconf');")
    assert IMPORT.match("const utils = require(`../utils`);")  # a fixed path in backquotes is still an import


def test_the_folded_source_shows_the_module_it_chooses() -> None:
    chunk = Chunk("src/database/index.js", "javascript", 1, 14, DATABASE_INDEX, "", "module", "source")
    terms = question_terms(Question.parse(QUESTION))
    shown = [line.text.strip() for line in folded_lines(source_lines(terms, chunk, [], 5))]
    assert "const primaryDB = require(`./${databaseName}`);" in shown
