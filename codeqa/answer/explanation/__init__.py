"""What an answer says, worked out from the code alone: the pool of sources, their key lines, the flow through
resolved calls, the checked claims, the conclusion by intent, and the extractive map built from them.

Used by ``codeqa.answer.answering`` (every answer) and ``codeqa.answer.llm`` (a model's brief is the same facts).
It uses ``codeqa.answer.rendering`` for safe text and never the language model.
"""
