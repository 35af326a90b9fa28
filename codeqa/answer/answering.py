"""``ask``: retrieve, then stream a grounded answer, falling back to the extractive map whenever no model can answer.

Retrieval and the extractive map are done before the stream is returned, so a UI can show sources and the map
at once and replace the map with generated text as it arrives. LLM failures never escape: before the first
token they turn into the extractive answer plus a notice; after it, into the partial answer plus a notice.
A model's text is shown sentence by sentence: one whose "A calls B" fails in the code is dropped (``modelclaims``).
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass

from codeqa.answer.explanation.calls.claims import ClaimTally
from codeqa.answer.explanation.calls.graphqa import answer_from_graph, graph_intent
from codeqa.answer.explanation.explain import Explanation
from codeqa.answer.explanation.pool import explain_index
from codeqa.answer.explanation.said.extractive import flow_text, no_match, render_markdown
from codeqa.answer.llm.backends.base import LLMBackend
from codeqa.answer.llm.backends.registry import traits_of
from codeqa.answer.llm.backends.select import FALLBACK, choose_backend
from codeqa.answer.llm.brief import budget_for, build_brief, prompt_text
from codeqa.answer.llm.conversation import HISTORY_SHARE, condense_query, fit_history, normalize_history
from codeqa.answer.llm.modelclaims import ModelClaims, checked
from codeqa.answer.llm.prompt import Prompt, build_summary_prompt
from codeqa.answer.llm.redact import count_masked, redact_secrets, redact_turns
from codeqa.answer.rendering.citations import check_citations
from codeqa.answer.rendering.injection import flag_sources
from codeqa.answer.rendering.render import link_hosts, remote_references
from codeqa.config import Settings
from codeqa.errors import LLMError, QueryError, SymbolNotFoundError
from codeqa.index import Index
from codeqa.records import Hit
from codeqa.retrieve import Filters, validate_query
from codeqa.store import Manifest

MAX_K = 50
SUMMARY_TOKENS = 200  # a tiny model writes one paragraph on top of the extractive answer


@dataclass
class Answer:
    """A finished answer: its text, the numbered sources it was given, and how far its citations hold."""

    question: str
    text: str  # final markdown (generated, or the extractive map)
    sources: list[Hit]  # numbered 1..n in this order
    backend: str  # backend actually used ("none" for extractive)
    model: str | None
    generated: bool  # False for the extractive answer
    citations_valid: int
    citations_invalid: list[str]
    notice: str | None


class AnswerStream:
    """Iterate for answer text as it is generated; ``result()`` gives the checked ``Answer`` afterwards."""

    def __init__(
        self,
        *,
        question: str,
        query: str,
        sources: list[Hit],
        extractive: str,
        notice: str | None,
        backend: LLMBackend | None = None,
        model: str | None = None,
        prompt: Prompt | None = None,
        max_tokens: int = 1024,
        retrieved: list[Hit] | None = None,
        allowed_hosts: tuple[str, ...] = (),
        suffix: str = "",
        explanation: Explanation | None = None,
    ) -> None:
        self.question = question
        self.query = query  # what retrieval searched for (the condensed follow-up)
        self.sources = sources
        self.extractive = extractive
        self.notice = notice
        self._backend = backend
        self._model = model
        self._prompt = prompt
        self._max_tokens = max_tokens
        self._retrieved = retrieved if retrieved is not None else sources
        self._allowed_hosts = allowed_hosts  # links there are fine (the index's own web page)
        self._suffix = suffix  # appended after the generated text (the extractive answer under a tiny model's summary)
        self.explanation = explanation  # what the extractive answer and the model's brief were built from
        self._parts: list[str] = []
        self._answer: Answer | None = None
        self.model_claims = ClaimTally()  # the model's own "A calls B" sentences: made, verified, dropped
        self._started = False

    @property
    def prompt(self) -> Prompt | None:
        """The prompt sent to the model (None for the extractive answer)."""
        return self._prompt

    @property
    def backend(self) -> str:
        return self._backend.name if self._backend else "none"

    def __iter__(self) -> Iterator[str]:
        if self._started:  # a second pass replays the finished text
            yield self.result().text
            return
        self._started = True
        if self._backend is None or self._prompt is None:
            yield from self._extractive()
            return
        claims = ModelClaims(self.explanation.context if self.explanation else None, self.sources)
        self.model_claims = claims.tally
        try:
            tokens = self._backend.stream_chat(self._prompt.messages, self._model or "", max_tokens=self._max_tokens)
            try:
                for piece in checked(tokens, claims):  # a sentence is shown once its call claims are checked
                    self._parts.append(piece)
                    yield piece
            finally:
                close = getattr(tokens, "close", None)
                if close:
                    close()
        except LLMError as exc:
            yield from self._failed(str(exc), claims.flush())
            return
        except Exception as exc:  # a backend bug must still not reach the user as a traceback
            reason = f"The {self.backend} backend failed unexpectedly ({exc.__class__.__name__}: {exc})."
            yield from self._failed(reason, claims.flush())
            return
        if self._suffix:
            if not "".join(self._parts).strip():  # the model said nothing: the extractive answer alone
                yield from self._extractive()
                return
            self._parts.append(self._suffix)
            yield self._suffix
        self._finish("".join(self._parts), generated=True)

    def _extractive(self) -> Iterator[str]:
        self._backend = None
        self._model = None
        self.sources = self._retrieved
        self._finish(self.extractive, generated=False)
        yield self.extractive

    def _failed(self, reason: str, pending: str = "") -> Iterator[str]:
        """Before any text: the extractive answer; mid-answer: keep what came, say it was cut off."""
        if pending:  # the sentence being written when the model failed (its claims checked)
            self._parts.append(pending)
            yield pending
        partial = "".join(self._parts)
        if not partial.strip():
            self.notice = f"{reason} {FALLBACK}"
            yield from self._extractive()
            return
        self.notice = f"The answer was cut off: {reason}"
        if partial.count("```") % 2:  # cut off inside a code block: close it, or everything below renders as code
            self._parts.append("\n```")
            yield "\n```"
        if self._suffix:  # the extractive answer under a tiny model's summary does not die with the model
            self._parts.append(self._suffix)
            yield self._suffix
        self._finish("".join(self._parts), generated=True)

    def _finish(self, text: str, *, generated: bool) -> None:
        report = check_citations(text, self.sources)
        outside = remote_references(text, self._allowed_hosts) if generated else []
        if outside:  # a model that obeyed an instruction hidden in the code tries to send it away this way
            warning = (
                f"The answer contains {', '.join(outside)}: shown as text, nothing was loaded. A model is led to "
                "write these by instructions hidden in code; treat the answer with care."
            )
            self.notice = f"{self.notice} {warning}" if self.notice else warning
        self._answer = Answer(
            question=self.question,
            text=text,
            sources=self.sources,
            backend=self.backend,
            model=self._model,
            generated=generated,
            citations_valid=len(report.valid),
            citations_invalid=report.invalid,
            notice=self.notice,
        )

    def result(self) -> Answer:
        """The finished answer (consumes the rest of the stream if it was not fully read)."""
        if self._answer is None and not self._started:
            for _ in self:
                pass
        if self._answer is None:  # the reader stopped iterating early: keep what was generated
            partial = "".join(self._parts)
            self.notice = self.notice or "The answer was stopped before it was complete."
            self._finish(partial or self.extractive, generated=bool(partial))
        assert self._answer is not None
        return self._answer


def ask(
    index: Index,
    question: str,
    *,
    filters: Filters | None = None,
    history: list[tuple[str, str]] | None = None,
    backend: str | None = None,
    model: str | None = None,
    k: int = 8,
) -> AnswerStream:
    """Answer ``question`` about ``index``; raises only for bad input (``QueryError``)."""
    question = validate_query(question)
    if not 1 <= k <= MAX_K:
        raise QueryError(f"k must be between 1 and {MAX_K}, got {k}.")
    turns = normalize_history(history)
    settings, manifest = index.settings, index.manifest
    intent, graph_notice = graph_intent(question), None
    if intent is not None:  # "who calls X": answered from the symbol graph, whatever the backend
        try:
            text, found = answer_from_graph(index, intent)
            return AnswerStream(question=question, query=question, sources=found, extractive=text, notice=None)
        except SymbolNotFoundError as exc:
            graph_notice = f"{exc} Answering from a search of the code instead."
    choice = choose_backend(settings, backend, model)
    masked, sent_question = 0, question
    if choice.backend is not None and not choice.backend.local and settings.redact_secrets_for_remote:
        turns, masked = redact_turns([*turns, ("user", question)])  # the conversation leaves the machine too
        (_, sent_question), turns = turns[-1], turns[:-1]
    traits = traits_of(choice.backend) if choice.backend is not None else None
    condenser = (choice.backend, choice.model) if traits and traits.condenses_follow_ups else (None, None)
    query = condense_query(sent_question, turns, *condenser)  # an LLM rewrites a follow-up into a search query
    explanation = explain_index(index, question, query, filters, k)
    hits = explanation.sources if explanation else []
    extractive = render_markdown(explanation) if explanation else no_match(question)
    flagged = flag_sources(hits)
    common = {"question": question, "query": query, "extractive": extractive, "retrieved": hits,
              "allowed_hosts": link_hosts(manifest.web_url), "explanation": explanation}  # fmt: skip
    if choice.backend is None or traits is None or not hits:
        notice = choice.notice if hits else _no_hits_notice(choice.backend, filters)
        return AnswerStream(sources=hits, notice=_join(graph_notice, notice, flagged), **common)
    summary_only = traits.small_model  # a tiny model: one paragraph on top of the extractive answer
    assert explanation is not None
    try:
        prompt = _prompt(sent_question, hits, turns, settings, choice.backend, manifest, explanation, summary_only)
    except LLMError as exc:  # e.g. the embedded model cannot be loaded to count tokens
        return AnswerStream(sources=hits, notice=_join(f"{exc} {FALLBACK}", flagged), **common)
    notice = _join(graph_notice, choice.notice)
    if prompt.redacted:  # the distinct secrets masked in what is sent: sources, key lines, conversation, question
        where = "the sources" + (" and the conversation" if masked else "")
        notice = _join(notice, f"{prompt.redacted} likely secret(s) in {where} were masked before sending.")
    notice = _join(notice, flag_sources(prompt.sources))
    return AnswerStream(
        sources=prompt.sources,
        notice=notice,
        backend=choice.backend,
        model=choice.model,
        prompt=prompt,
        max_tokens=min(SUMMARY_TOKENS, settings.answer_max_tokens) if summary_only else settings.answer_max_tokens,
        suffix=f"\n\n{extractive}" if summary_only else "",
        **common,
    )


def _prompt(
    question: str,
    hits: list[Hit],
    turns: list[tuple[str, str]],
    settings: Settings,
    backend: LLMBackend,
    manifest: Manifest,
    explanation: Explanation,
    summary_only: bool = False,
) -> Prompt:
    flow = flow_text(explanation)
    redacting = settings.redact_secrets_for_remote and not backend.local  # the code leaves the machine: mask secrets
    if redacting:
        flow, _ = redact_secrets(flow)
    if summary_only:
        budget = max(256, min(settings.answer_token_budget, backend.context_tokens - SUMMARY_TOKENS - 16))
        prompt = build_summary_prompt(question, hits, flow, budget=budget, count=backend.count_tokens)
    else:
        budget = budget_for(settings, backend.context_tokens)
        history = fit_history(turns, int(budget * HISTORY_SHARE), backend.count_tokens)
        repo = manifest.name + (f" @ {manifest.sha[:12]}" if manifest.sha else "")
        texts = {hit.chunk.id: redact_secrets(hit.chunk.text)[0] for hit in hits} if redacting else {}
        prompt = build_brief(question, explanation, budget=budget, count=backend.count_tokens, history=history,
                             repo=repo, flow=flow, texts=texts)  # fmt: skip
    if redacting:  # count what the model will read (sources may be dropped or cut to fit), each secret once
        prompt.redacted = count_masked(prompt_text(prompt))
    return prompt


def _join(*notices: str | None) -> str | None:
    return " ".join(notice for notice in notices if notice) or None


def _no_hits_notice(backend: LLMBackend | None, filters: Filters | None) -> str | None:
    if backend is None:
        return None
    scope = " within these filters" if filters and filters.active else ""
    return f"No code matched the question{scope}, so nothing was sent to the model."
