"""The small pieces under the servers: key lines, filter-value checks, the rate limit, the bind check."""

from __future__ import annotations

import pytest

from codeqa.answer import key_lines
from codeqa.errors import CodeqaError, QueryError
from codeqa.records import Chunk
from codeqa.retrieve import Filters, check_filter_values
from codeqa.searchfiles import ChunkTable
from codeqa.service.hosts import check_bind, is_loopback
from codeqa.service.ratelimit import RateLimiter

CODE = '''class SessionStore:
    """Keeps logged-in users' session tokens in memory."""

    def __init__(self):
        self._tokens = {}

    def login(self, username, password, users):
        record = users[username]
        if not verify(hash_password(password, record["salt"]), record["hash"]):
            raise PermissionError("wrong password")
        return self._open_session(username)
'''


def test_key_lines_pick_the_lines_sharing_most_question_terms_in_file_order():
    lines = key_lines("how is the password hashed at login?", CODE, start_line=40, limit=2)
    assert [line.line for line in lines] == [46, 48]  # def login(… password …), hash_password(password …)
    assert lines[0].text == "    def login(self, username, password, users):"
    assert all(line.text == CODE.split("\n")[line.line - 40].rstrip() for line in lines)


def test_key_lines_split_identifiers_and_cap_the_count():
    lines = key_lines("sessionStore tokens", CODE, start_line=1)
    assert [line.line for line in lines][:2] == [1, 2]
    assert len(key_lines("self username password record", CODE, 1)) == 5
    assert key_lines("anything", CODE, 1, limit=0) == []


def test_key_lines_without_a_shared_term_show_the_first_line():
    assert [(k.line, k.text) for k in key_lines("quantum chromodynamics", "\n\n  def f():\n    pass\n", 10)] == [
        (12, "  def f():")
    ]


def test_key_lines_clip_long_lines():
    (line,) = key_lines("needle", "x = 'needle" + "a" * 500 + "'", 1)
    assert len(line.text) == 200 and line.text.endswith("…")


def table() -> ChunkTable:
    built = ChunkTable()
    built.append(
        [
            Chunk("a.py", "python", 1, 2, "x", "f", "function", "core"),
            Chunk("b.js", "javascript", 1, 2, "y", "C", "class", "api"),
        ]
    )
    return built


def test_unknown_filter_values_list_the_values_the_index_has():
    check_filter_values(Filters(layers=("api",), kinds=("class", "function"), languages=("python",)), table())
    with pytest.raises(QueryError, match=r"Unknown layer 'apis'; this index has these layers: core, api\."):
        check_filter_values(Filters(layers=("apis",)), table())
    with pytest.raises(QueryError, match=r"Unknown languages? 'rust', 'go'; this index has these languages: "):
        check_filter_values(Filters(languages=("python", "rust", "go")), table())
    with pytest.raises(QueryError, match="Unknown kind 'fn'"):
        check_filter_values(Filters(kinds=("fn",)), table())
    check_filter_values(Filters(paths=("anything",), globs=("*.rs",)), table())  # paths and globs are not values


def test_rate_limit_is_per_client_and_bucket_and_frees_up_with_time():
    now = [1000.0]
    limiter = RateLimiter({"ask": 2, "search": 0}, window=60, clock=lambda: now[0])
    assert limiter.check("a", "ask") is None
    now[0] += 10
    assert limiter.check("a", "ask") is None
    assert limiter.check("a", "ask") == 50  # the first request leaves the window in 50 s
    assert limiter.check("b", "ask") is None  # another client has its own budget
    assert all(limiter.check("a", "search") is None for _ in range(100))  # 0 = unlimited
    now[0] += 50
    assert limiter.check("a", "ask") is None


def test_binding_beyond_loopback_needs_a_token():
    assert is_loopback("127.0.0.1") and is_loopback("localhost") and is_loopback("::1") and is_loopback("127.0.0.5")
    assert not is_loopback("0.0.0.0") and not is_loopback("192.168.1.4") and not is_loopback("example.com")
    check_bind("127.0.0.1", None)
    check_bind("0.0.0.0", "a-long-random-secret-0123")
    with pytest.raises(CodeqaError, match="CODEQA_API_TOKEN"):
        check_bind("0.0.0.0", None)
    for weak in ("x", " ", "a" * 15, "sixteen chars ok"):  # too short, or with spaces: refused off loopback only
        with pytest.raises(CodeqaError, match="at least 16 characters without spaces"):
            check_bind("0.0.0.0", weak)
        check_bind("127.0.0.1", weak)
