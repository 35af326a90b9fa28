"""Code that runs in the browser, and when it may open an answer.

An app with a server and a client (a Laravel API and a Vue player, a Flask backend and React components) holds the
question's words on both sides: the button that uploads a file and the code that stores it, the settings page and
the check of who may change a site. Asked what is checked, stored or decided ("where do uploaded files end up?",
"who is allowed to change a site's statistics, and where is that checked?"), the newcomer wants the server's code
first; a component that only calls it is no answer's first sentence. Client code opens only a question about what the
user sees or does in the browser (a page, a button, the embedded script) that names nothing of the server.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence

from codeqa.answer.explanation.constructs.candidate import Candidate
from codeqa.frameworks.evidence import COMPONENT_LANGUAGES
from codeqa.records import Chunk

SCRIPT_LANGUAGES = frozenset({"javascript", "typescript"})
# folders of code served to the browser (scripts only: Laravel's `public/index.php` is the server's entry)
CLIENT_FOLDERS = re.compile(r"(?:^|/)(?:client|frontend|front-end|webapp|public|static|assets)/", re.IGNORECASE)
UI_ASKED = re.compile(
    r"\b(?:pages?|screens?|buttons?|click(?:s|ed|ing)?|taps?|browsers?|displays?|shown|components?|front.?end|"
    r"client|ui|tabs?|menus?|modals?|dialogs?|themes?|dark mode|css|styles?|layouts?|scripts?|widgets?|"
    r"render(?:s|ed|ing)?)\b",
    re.IGNORECASE,
)
SERVER_ASKED = re.compile(
    r"\b(?:servers?|backend|back.?end|api|database|db|stored|stores?|saved?|persist(?:s|ed)?|checked|allowed)\b",
    re.IGNORECASE,
)


def runs_in_browser(chunk: Chunk) -> bool:
    """A component (``.tsx``, ``.vue`` …) or a script under a folder served to the browser."""
    language = str(chunk.language)
    return language in COMPONENT_LANGUAGES or (language in SCRIPT_LANGUAGES and bool(CLIENT_FOLDERS.search(chunk.path)))


def asks_about_the_browser(question: str) -> bool:
    """The question names what the user sees or does in the browser, and nothing of the server."""
    return bool(UI_ASKED.search(question)) and not SERVER_ASKED.search(question)


def server_first(ordered: Sequence[Candidate], question: str) -> list[Candidate]:
    """``ordered`` with the best candidate outside the browser first, when client code leads a question that is not
    about the browser (unchanged when every candidate is client code: a single-page app alone)."""
    if not ordered or not runs_in_browser(ordered[0].chunk) or asks_about_the_browser(question):
        return list(ordered)
    first = next((c for c in ordered if not runs_in_browser(c.chunk)), None)
    if first is None:
        return list(ordered)
    return [first, *(c for c in ordered if c is not first)]


def server_files_first(paths: Sequence[str], chunk_of: Mapping[str, Chunk], question: str) -> list[str]:
    """``paths`` (retrieval's file order) with the server's files before the browser's, when the question names the
    server's side (what is saved, checked or allowed) and names nothing of the browser: the files an answer looks at
    are few, and a reply's button, its counter and its animation must not take the places of the code that saves the
    reply. "In the browser app, how does each call to the server carry …" keeps retrieval's order. ``chunk_of``: a
    chunk of each file (a file's chunks all run on one side)."""
    if not SERVER_ASKED.search(question) or UI_ASKED.search(question):
        return list(paths)

    def in_browser(path: str) -> bool:
        return path in chunk_of and runs_in_browser(chunk_of[path])

    return [*(p for p in paths if not in_browser(p)), *(p for p in paths if in_browser(p))]
