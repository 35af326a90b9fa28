"""A code line as a sentence quotes it: the statement as written (its ``return``, ``raise``, ``await`` kept), cut only
where ``cut_quote`` cuts, after a verb phrase that reads well before it ("answers the request: `return …`")."""

from __future__ import annotations

import re

CLOSERS = {"(": ")", "[": "]", "{": "}"}
# a statement's keyword: said by a verb ("answers with `return X`" reads badly), kept in the quote (the reader sees
# the line as written: `return JsonResponse(…)` is what the code does, `JsonResponse(…)` only a part of it)
KEYWORD = re.compile(r"^\s*(?:return|raise|throw|await|yield)\b(?=\s|;|$)")
# the verb phrase before a colon and the whole statement, by the outcome's kind ("returns" reads "ends in `return x`")
PHRASES = {
    "answers with": "answers the request:",
    "returns": "ends in",
    "raises": "raises an exception:",
    "stores": "stores:",
    "stores with": "stores:",
    "logs with": "logs:",
    "signs the user in with": "signs the user in:",
    "issues a token with": "issues a token:",
    "queues a job with": "queues a job:",
}


def outcome_said(text: str) -> str:
    """An outcome's line without its ``return`` keyword: for measuring a line, as a verb before it would say it."""
    return re.sub(r"^\s*return\s+(?=\S)", "", text)


def said_line(verb: str, text: str, limit: int) -> tuple[str, str]:
    """(verb phrase, quote) for outcome line ``text`` said after verb ``verb`` ("answers with"): a line opening on a
    keyword is quoted whole after a phrase that needs no object ("answers the request: `return JsonResponse(…)`"),
    any other after the verb itself; a line longer than ``limit`` (not counting its keyword) is cut by ``cut_quote``."""
    flat = " ".join(text.split())
    keyword = KEYWORD.match(flat)
    room = limit + (keyword.end() + 1 if keyword else 0)
    quote = flat if len(flat) <= room else cut_quote(flat, room)
    if keyword is None:
        return verb, quote
    return PHRASES.get(verb, verb.removesuffix(" with") + ":"), quote


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
