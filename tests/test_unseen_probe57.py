"""Sentences read in the lead's own answers of stop 57 (#35), each on the few lines that made it.

- "It reads ``const OAuth2Strategy = require('passport-oauth2');``" (hackathon-starter's ``config/passport.js``): a
  module loaded by ``require`` is no value the strategy's settings read, though its name holds a digit.
"""

from __future__ import annotations

from codeqa.answer.explanation.keylines import KeyLine
from codeqa.answer.explanation.values import values_read
from codeqa.records import Chunk

IMPORTS = """const passport = require('passport');
const OAuthStrategy = require('passport-oauth1');
const OAuth2Strategy = require('passport-oauth2');
const LINKEDIN_SCOPE = 'openid profile email';
const TOKEN_DAYS = 30;
"""
LINKEDIN = """const linkedinStrategyConfig = new OAuth2Strategy(
  {
    authorizationURL: 'https://www.linkedin.com/oauth/v2/authorization',
    scope: LINKEDIN_SCOPE,
    maxAge: TOKEN_DAYS,
    passReqToCallback: true,
  },"""


def _chunk(text: str, start: int, symbol: str = "") -> Chunk:
    return Chunk("config/passport.js", "javascript", start, start + text.count("\n"), text, symbol, "module", "config")


def test_a_module_loaded_by_require_is_no_value_read() -> None:
    head, config = _chunk(IMPORTS, 1), _chunk(LINKEDIN, 431, "linkedinStrategyConfig")
    lines = [KeyLine(431 + n, text) for n, text in enumerate(LINKEDIN.split("\n"))]
    read = values_read(lines, config, [head])
    assert [value.name for value in read] == ["LINKEDIN_SCOPE", "TOKEN_DAYS"]  # not OAuth2Strategy
