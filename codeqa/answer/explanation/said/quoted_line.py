"""The line an answer's opening quotes from its first source: the shown line with most of the question's words, and
of as many, one that does something rather than a definition's head.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from codeqa.answer.explanation.calls.callplace import module_level
from codeqa.answer.explanation.calls.claims import _module_level
from codeqa.answer.explanation.calls.flow import SIGNATURE, Use, code_part
from codeqa.answer.explanation.code.condition import condition_at
from codeqa.answer.explanation.code.handled import handled_type
from codeqa.answer.explanation.code.jsopened import JS_LANGUAGES
from codeqa.answer.explanation.code.keylines import KeyLine, Terms, term_score
from codeqa.answer.explanation.code.linenames import holder_at
from codeqa.answer.explanation.code.saidline import cut_quote
from codeqa.answer.explanation.explain import Step
from codeqa.answer.explanation.said.outcomes import METHOD_SIGNATURE, OUTCOMES, quotable
from codeqa.answer.rendering.render import code_span
from codeqa.records import Chunk

__all__ = ["best_line", "branch_of", "cut_quote", "quoted_holder"]

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


# a line raising an error: its message's words are what went wrong, weak evidence of how the thing asked about is made
# (kimai: "How are invoices generated?" opened on `throw new \Exception('… the number generator is …')`)
THROWS = re.compile(r"^\s*(?:throw|raise)\b")
STRING = re.compile(r"\"(?:[^\"\\]|\\.)*\"|'(?:[^'\\]|\\.)*'|`(?:[^`\\]|\\.)*`")


# a line answering with an error status outside its strings (`return notify("There was a problem saving it", 403)`,
# `render plain: msg, status: :forbidden`): its message says what went wrong, as a raise's does (rubygems.org: "When
# someone pushes a gem, what code runs to save it?" opened on the 403 above the write)
ERROR_ANSWER = re.compile(
    r"(?<![\w.])[45]\d\d(?![\w.])|\bstatus:\s*:(?!ok\b|created\b|accepted\b|no_content\b|found\b)\w+"
    r"|\bHttpStatus\.(?!OK\b|CREATED\b|ACCEPTED\b|NO_CONTENT\b|FOUND\b)[A-Z_]+"
)


def _score(terms: Terms, text: str, errors: bool) -> float:
    """The question's words on a line; a raising line's or an error answer's message counts only for a question
    about errors."""
    bare = STRING.sub("''", text)
    return term_score(terms, text if errors or not (THROWS.match(text) or ERROR_ANSWER.search(bare)) else bare)


def best_line(step: Step, terms: Terms, intents: Sequence[str] = ()) -> KeyLine | None:
    """The shown line the opening quotes: the one with most of the question's words; of as many, a line that does
    something before a definition's head (round 8: "`canUploadFile` is the closest match found: `public static
    function canUploadFile(Account $account): bool`" told a newcomer nothing the code does), unless the head's own
    name, without its parameters, holds as many (``isFileModified`` says more than a podcast guard)."""
    errors = "errors" in intents
    scored = [(_score(terms, line.text, errors), -n, line) for n, line in enumerate(step.lines) if quotable(line.text)]
    lines = step.chunk.text.split("\n")
    scored = [item for item in scored if not _fragment(item[2].text, lines, item[2].line - step.chunk.start_line)]
    scored = scored or [(_score(terms, line.text, errors), -n, line) for n, line in enumerate(step.lines)
                        if quotable(line.text)]  # fmt: skip
    named = [term_score(terms, _name_part(item[2].text)) for item in scored if _head_only(item[2].text)]
    doing = [item for item in scored if item[0] > max(named or [0]) and not _head_only(item[2].text)]
    # of lines as good, one outside an exception handler (cachet's `postManage` answers alike after a failed
    # validation and after the update: the update's is how it goes), unless the question is about errors
    handled = {item[2].line for item in scored if not errors and handled_type(step.chunk, item[2].line)}
    return max(doing or scored, key=lambda item: (item[0], item[2].line not in handled, item[1]))[2] if scored else None


RETURNS = re.compile(r"^\s*return\b")


def branch_of(chunk: Chunk, line: KeyLine) -> tuple[str, str]:
    """The test a quoted line that answers or returns runs under, said after the quote (markdown, plain): `` when
    `$request->has('force_old_ui')` `` after pixelfed's ``return view('timeline.home', …)``, which reads as what the
    controller always answers (it redirects otherwise). Nothing for another line, one that runs every time its
    definition does, or one whose test cannot be said in a few words."""
    code = code_part(line.text)
    if not (RETURNS.match(code) or dict(OUTCOMES)["answers with"].search(code)):
        return "", ""
    word, test = condition_at(chunk, line.line) or ("", "")
    md, plain = (f" {word} {code_span(test)}", f" {word} {test}") if word and test else ("", "")
    if handled := handled_type(chunk, line.line):  # a handler's answer (cachet's `catch (ValidationException $e)`)
        article = "an" if handled[:1] in "AEIOU" else "a"
        md, plain = f" for {article} {code_span(handled)}{md}", f" for {article} {handled}{plain}"
    return md, plain


def quoted_holder(chunk: Chunk, line: KeyLine) -> str | None:
    """Who holds the quoted ``line``: the definition around it, or the file for a module's statement in a chunk named
    after the one definition it also holds (saleor's ``WebhookEventAsyncType.ORDER_FULLY_PAID,`` in the set
    ``WEBHOOK_EVENTS_FOR_FULLY_PAID = {`` below ``class OrderFulfillmentLineInfo(TypedDict)``: not the class's line;
    a JavaScript entry of a top-level object or export list below the function the chunk is named after);
    None when neither is certain (the chunk's name then stands)."""
    holder = holder_at(chunk, line.line)
    if holder is None and module_level(Use("", line.line, "uses", line.text.strip()), chunk):
        return chunk.path.rsplit("/", 1)[-1]
    if holder is None and chunk.language in JS_LANGUAGES and chunk.symbol and _module_level(chunk, line.line):
        return chunk.path.rsplit("/", 1)[-1]  # kutt's `  registerHandlebarsHelpers,` in `module.exports = {`
    return holder
