"""The language-model path: the backends (Ollama, an OpenAI-compatible server, the embedded llama.cpp), the brief
and prompt a model gets, secrets masked before anything leaves the process, follow-up turns, and the model's own
"A calls B" sentences checked before they are shown.

Used by ``codeqa.answer.answering``; it builds on ``codeqa.answer.explanation`` and ``codeqa.answer.rendering``.
"""
