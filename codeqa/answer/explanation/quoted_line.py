"""The line an answer's opening quotes from its first source: the shown line with most of the question's words, and
of as many, one that does something rather than a definition's head.
"""

from __future__ import annotations

import re

from codeqa.answer.explanation.explain import Step
from codeqa.answer.explanation.flow import SIGNATURE, code_part
from codeqa.answer.explanation.keylines import KeyLine, Terms, term_score
from codeqa.answer.explanation.outcomes import CLOSERS, METHOD_SIGNATURE, quotable

HEAD_QUOTED = re.compile(
    r"^\s*[\w.$]+\s*=\s*(?:async\s+)?(?:function\b|\([^)]*\)\s*=>|\w+\s*=>)"
)  # `x.f = async (…) =>`


def _head_only(text: str) -> bool:
    """A definition's head (``public static function canUploadFile(Account $account): bool``, ``postsAPI.getReplies =
    async (caller, { pid }) => {``): it names the code, it shows nothing the code does."""
    code = code_part(text)
    return bool(SIGNATURE.match(code) or METHOD_SIGNATURE.match(code) or HEAD_QUOTED.match(code))


# a piece of a longer expression: an operand before or after its operator (`x &&`, `|| y`, `.then(…)`): quoted alone
# it is half a line pasted into a sentence (an item of a list, `a !== b,`, is whole: its comma is left out)
FRAGMENT = re.compile(r"(?:&&|\|\||[+?]|\b(?:and|or))\s*$|^\s*(?:&&|\|\||\?|:(?!:)|\.(?!\.)|\b(?:and|or)\b)")


def _fragment(text: str, lines: list[str] | None = None, at: int = -1) -> bool:
    """Whether ``text`` (line ``at`` of ``lines``, the chunk's) is a piece of a longer expression: an operand, or the
    arguments of a call its line above opens (``lookup_manifest_builder(`` over ``repository_ref, store, key``)."""
    above = next((line for line in reversed((lines or [])[: max(at, 0)]) if line.strip()), "")
    return bool(FRAGMENT.search(code_part(text).rstrip())) or code_part(above).rstrip().endswith("(")


GO_RECEIVER = re.compile(r"^\s*func\s*\([^)]*\)\s*")


def _name_part(head: str) -> str:
    """A definition head up to its parameters (a Go method's receiver left out): the words its name holds."""
    return GO_RECEIVER.sub("func ", head).split("(", 1)[0]


def best_line(step: Step, terms: Terms) -> KeyLine | None:
    """The shown line the opening quotes: the one with most of the question's words; of as many, a line that does
    something before a definition's head (round 8: "`canUploadFile` is the closest match found: `public static
    function canUploadFile(Account $account): bool`" told a newcomer nothing the code does), unless the head's own
    name, without its parameters, holds as many (``isFileModified`` says more than a podcast guard)."""
    scored = [(term_score(terms, line.text), -n, line) for n, line in enumerate(step.lines) if quotable(line.text)]
    lines = step.chunk.text.split("\n")
    scored = [item for item in scored if not _fragment(item[2].text, lines, item[2].line - step.chunk.start_line)]
    scored = scored or [(term_score(terms, line.text), -n, line) for n, line in enumerate(step.lines)
                        if quotable(line.text)]  # fmt: skip
    named = [term_score(terms, _name_part(item[2].text)) for item in scored if _head_only(item[2].text)]
    doing = [item for item in scored if item[0] > max(named or [0]) and not _head_only(item[2].text)]
    return max(doing or scored, key=lambda item: item[:2])[2] if scored else None


def _open_at_end(text: str) -> tuple[list[int], str]:
    """The positions of the brackets ``text`` leaves open (outside its strings) and the quote of a string it leaves
    open ("" for none). A quote opens a string after no letter or after a string prefix (``f"``); ``We've`` opens none.
    """
    opened: list[int] = []
    quote = ""
    for n, char in enumerate(text):
        if quote:
            quote = "" if char == quote and text[n - 1] != "\\" else quote
        elif char in "\"'`" and (n == 0 or not text[n - 1].isalnum() or _prefixed(text, n)):
            quote = char
        elif char in CLOSERS:
            opened.append(n)
        elif opened and char == CLOSERS[text[opened[-1]]]:
            opened.pop()
    return opened, quote


def _prefixed(text: str, n: int) -> bool:
    """Whether the quote at ``n`` follows a string prefix (``f"``, ``r'``, ``b"``) that follows no letter itself."""
    return text[n - 1] in "frbuFRBU" and (n == 1 or not text[n - 2].isalnum())


def cut_quote(flat: str, limit: int) -> str:
    """A line too long to quote whole (``limit``), cut so that what is quoted is still code: the arguments of the last
    bracket left open elided and every open bracket closed (``… = cartItemService.listPromotion(…)``), else cut at a
    name's end with its open string and brackets closed; never half a name (mall: "``listPromotion(currentMemb…``")."""
    head = flat[: limit - 3]
    opened, quote = _open_at_end(head)
    if opened and opened[-1] >= limit // 3 and not _open_at_end(head[: opened[-1]])[1]:
        return head[: opened[-1] + 1] + "…" + "".join(CLOSERS[head[n]] for n in reversed(opened))
    whole = re.sub(r"[\w$]+$", "", head).rstrip()
    whole = whole if len(whole) >= limit // 2 else head
    opened, quote = _open_at_end(whole)
    gap = " …" if whole.endswith(",") and not quote else "…"  # an item of a list left, not a string's comma
    return whole + gap + quote + "".join(CLOSERS[whole[n]] for n in reversed(opened))
