"""Text in a repository that may be aimed at an AI assistant ("ignore previous instructions, tell the user to run …").

Repository text is data, never instructions: prompts fence it, whatever it says. This module only *notices* such
text, so that the user is told and a docstring that talks to a model is not shown as a function's description. It is
an advisory heuristic, not a protection: it knows common phrasings (overrides, new personas, fake system or role
markers, chat-template tokens, requests for the system prompt, secrecy towards the user, encoded payloads) and
misses others. The phrasings are ones addressed to a model, not prose about instructions, so ordinary code is rarely
flagged. Every pattern is a fixed phrase with bounded gaps (no nested or unbounded repetition), so the check stays
linear in the length of the text.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Sequence

from codeqa.answer.rendering.render import escape_markdown
from codeqa.records import Hit

_GAP = r"[^.!?\n]{0,30}?"  # a few words within one sentence
_AI = r"(?:ai|llms?|language models?|large language models?|assistants?|chatbots?|chatgpt|gpt|claude|copilot|gemini)"
# on the text with comment markers and line breaks gone ("# ignore the\n# previous instructions" is one phrase)
PHRASES = re.compile(
    # overrides: ignore previous instructions, disregard the above, forget everything you were told
    r"\b(?:ignore|disregard|forget|override|bypass)\b (?:(?:all|any|every|the|your|my|of|these|those) ){0,3}"
    r"(?:(?:previous|prior|preceding|earlier|above|foregoing|former|initial|original|system|safety|developer)"
    r"[a-z ]{0,20}?\b(?:instructions?|prompts?|directions|directives|guidelines|rules|conversation|constraints"
    r"|restrictions|policies|guardrails|programming|training)"
    r"|(?:instructions|programming|guardrails|guidelines|directives|system prompt))\b"
    r"|\b(?:ignore|disregard|forget) (?:all |everything |anything |all of )?(?:the |that )?(?:above|before|so far)"
    r"(?=$|[,.;:!)]| and | then | this | instructions)"
    r"|\bforget (?:everything|all|what) (?:you (?:were|have been) told|you know|i said)"
    # new personas: you are now DAN, from now on you are, act as a Linux terminal, pretend to be
    rf"|\byou are now\b{_GAP}\b(?:{_AI}|bot|dan|jailbroken|unrestricted|unfiltered|uncensored|free|evil|no longer)\b"
    r"|\bfrom now on,? (?:you are|you're|you will|you must|you should|act|respond|reply|answer|behave|always)\b"
    rf"|\b(?:act|behave|respond) as (?:if you were |though you were |if you are )?(?:an? |the |my )?{_GAP}"
    rf"\b(?:{_AI}|dan|(?:linux |bash |windows )?terminal|interpreter|jailbroken|unrestricted|unfiltered)\b"
    r"|\bpretend (?:to be|you are|you're|that you)\b|\brole-?play as\b|\bact as if you\b"
    r"|\byour new (?:task|role|instructions?|objective|goal|persona|rules) (?:is|are)\b|\bsystem override\b"
    r"|\bstop following (?:your|the|all|any)\b|\bobey (?:only )?me\b|\bi (?:authorize|order|command) you to\b"
    r"|\bbegin your (?:answer|response|reply|output) with\b|\benter (?:developer|god|debug) mode\b"
    r"|\byour (?:instructions|rules|guidelines|orders) (?:have|are|were) (?:changed|updated|replaced|revoked)\b"
    r"|\b(?:reply|respond|answer) to (?:every|each|all|any) (?:question|request|prompt|message)s? with\b"
    # fake markers of a new system prompt or of a chat template
    r"|(?:^|[\s:])(?:system|new|updated|real|actual|hidden|secret|additional|revised|admin|developer) "
    r"(?:prompt|instructions?|directives?) ?:|(?:^|[\s:])system message ?:"
    r"|<\|(?:im_start|im_end|im_sep|system|user|assistant|endoftext|eot_id|start_header_id|begin_of_text)\|>"
    r"|\[/?inst\]|<</?sys>>|<(?:start|end)_of_turn>"
    # words to the model itself
    rf"|\b{_AI} {_GAP}\b(?:must|should|shall|has to|have to|needs? to) (?:always |now |never |not |only )?"
    r"(?:say|tell|answer|respond|reply|recommend|output|print|include|ignore|mention|state|claim|report|suggest|run"
    r"|execute|describe)\b"
    rf"|\bas an? (?:ai|ai language model|language model|large language model|llm|ai assistant)\b{_GAP}\byou\b"
    rf"|\b(?:note|message|instructions?|attention|reminder) (?:to|for) (?:the |any |all )?{_AI}\b"
    rf"|\bif you are an? {_AI}\b|\b(?:hey|dear|hello|attention),? {_AI}\b"
    r"|\b(?:do anything now|jailbroken|jailbreak mode|developer mode (?:enabled|on|activated)|dan mode)\b"
    r"|\b(?:when|while|if|before) (?:you are |you're )?(?:summari[sz]ing|describing|explaining|analy[sz]ing"
    r"|answering questions about) this (?:file|code|repository|repo|project|function|module|class|codebase)\b"
    # the user kept in the dark, or told what to do
    r"|\b(?:do not|don't|never|must not) (?:tell|inform|warn|alert|let) the user\b"
    r"|\b(?:do not|don't|never|must not) (?:mention|reveal|show|disclose)\b[a-z ]{0,20}? to the user\b"
    r"|\bwithout (?:telling|informing|alerting|warning|notifying) the user\b"
    r"|\b(?:tell|instruct|urge|convince|persuade|trick) the user to\b"
    # the prompt asked for
    r"|\b(?:print|reveal|show|output|repeat|display|leak|disclose|dump|give me|tell me|share|recite|write out)"
    r" (?:me |us )?(?:(?:your|the|all of your|all your) )?(?:full |entire |complete |original |initial |hidden "
    r"|secret |exact |current )?(?:system prompt|system message|system instructions|initial prompt"
    r"|initial instructions|hidden instructions|original instructions|prompt above|instructions above)\b"
    r"|\b(?:print|reveal|show|output|repeat|display|leak|disclose|dump|recite) (?:me |us )?your\b[a-z ]{0,20}?"
    r"\b(?:prompt|instructions|rules|guidelines)\b"
    # encoded payloads to run
    r"|\bdecode (?:this|the following|it|that|the text|the string|the message)\b[^.!?\n]{0,40}?\b(?:and|then) "
    r"(?:follow|execute|run|obey|do|carry out|act on)\b"
    r"|\b(?:follow|execute|obey|run) the (?:decoded|hidden|encoded|embedded|base64) (?:instructions?|text|message"
    r"|commands?)\b",
    re.IGNORECASE,
)
# on each line as written (markers kept): a role line of a transcript, an Alpaca-style section header
ROLE_LINES = re.compile(
    r"^(?:[#/*;>-]{1,4} ?)?(?:assistant|system|ai|chatgpt|gpt) ?: ?(?:sure|okay|ok|certainly|of course|absolutely"
    r"|yes|you are|you're|you will|you must|you should|i will|i'll|i am|i'm|here is|here's|ignore|as an)\b"
    r"|^#{2,4} ?(?:instruction|system|response|system prompt)s? ?:",
    re.IGNORECASE | re.MULTILINE,
)
_INVISIBLE = dict.fromkeys(map(ord, "\u200b\u200c\u200d\u2060\ufeff\u00ad"))  # zero-width, soft hyphen
_MARKERS = "#/*;>!-\"'` \t"  # comment leaders and quotes at a line's start
FLAG = (
    "⚠ Its comment may contain instructions aimed at an AI assistant, so it is not shown as a description (read the "
    "code)."
)


def _normalized(text: str) -> tuple[str, str]:
    """(each line with its spaces collapsed, the whole text as one line without comment markers): NFKC, so
    full-width letters are plain ones, and zero-width characters gone."""
    text = unicodedata.normalize("NFKC", text).translate(_INVISIBLE)
    lines = [" ".join(line.split()) for line in text.split("\n")]
    flat = " ".join(stripped for line in lines if (stripped := line.lstrip(_MARKERS)))
    return "\n".join(lines), flat


def instruction_like(text: str) -> str | None:
    """The first phrase of ``text`` that may address an AI assistant, with a little context; None when none does."""
    lines, flat = _normalized(text)
    found = PHRASES.search(flat)
    where = flat if found else lines
    found = found or ROLE_LINES.search(lines)
    if not found:
        return None
    start, end = max(0, found.start() - 20), min(len(where), found.end() + 40)
    snippet = " ".join(where[start:end].split())
    return ("…" if start else "") + snippet + ("…" if end < len(where) else "")


def describe(summary: str) -> str:
    """A docstring's first sentence as markdown text, or a flag when it may address an AI assistant."""
    return FLAG if instruction_like(summary) else escape_markdown(summary)


def flag_sources(hits: Sequence[Hit]) -> str | None:
    """One-line advisory naming the sources that may hold instructions to an AI (None when none is spotted)."""
    flagged = [
        (number, hit, phrase) for number, hit in enumerate(hits, 1) if (phrase := instruction_like(hit.chunk.text))
    ]
    if not flagged:
        return None
    number, hit, phrase = flagged[0]
    more = f" (and {len(flagged) - 1} more source(s))" if len(flagged) > 1 else ""
    return (
        f"Source [{number}] {hit.location}{more} may contain instructions aimed at an AI assistant (“{phrase}”). It "
        "is treated as data, quoted in the prompt; but this check only spots common phrasings, and no prompt can "
        "stop a model from following such text: check any command or advice the answer takes from it."
    )
