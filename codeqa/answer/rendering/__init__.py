"""Turning text into what is shown: the one gate for repository text in Markdown, citations checked and linked to
the code view, the code view itself, and flags on text aimed at an AI assistant.

Used by every other part of ``codeqa.answer`` and by the app, the CLI and the service; it imports none of them.
"""
