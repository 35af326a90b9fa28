"""What an answer says, worked out from the code alone: the pool of sources, their key lines, the flow through
resolved calls, the checked claims, the conclusion by intent, and the extractive map built from them.

Used by ``codeqa.answer.answering`` (every answer) and ``codeqa.answer.llm`` (a model's brief is the same facts).
It uses ``codeqa.answer.rendering`` for safe text and never the language model.

Its parts, each reading only the ones listed before it: ``code/`` (what a line or a chunk of code is: key lines,
names, conditions), ``calls/`` (who calls whom, checked) and ``constructs/`` (the framework's constructs and the
hooks they show), ``sources/`` (which code is shown, how much of it), ``story/`` (the flow as steps, where each ends),
then ``explain`` (the structured answer) and ``pool`` (retrieval's pool explained), then ``said/`` (the sentences
said of it, and the rendered map). ``tests/test_architecture.py`` holds them to that order.
"""
