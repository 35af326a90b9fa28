"""Which code opens the answer (issue #35, "wrong or side-path opening"): the code that answers, not a side path.

Each app is a few real files chunked and tagged as indexing does; the retrieved pool is given (what retrieval
found, best first), so the test shows which of those sources the answer's first sentence cites.
"""

from __future__ import annotations

import re

from codeqa.answer.context import AnswerContext
from codeqa.answer.explanation.explain import explain
from codeqa.answer.explanation.said.lead import lead_sentences
from codeqa.answer.explanation.sources.opener import siblings
from codeqa.chunk import chunk_file
from codeqa.records import Chunk, Hit, SourceFile
from tests.test_answer_follow import LARAVEL_ERRORS

LANGUAGES = {".php": "php", ".py": "python", ".json": "json"}

# a Laravel app: the app-wide exception handler is set up in bootstrap/app.php; the reminders are sent by a job
LARAVEL_REMINDERS = {
    "composer.json": LARAVEL_ERRORS["composer.json"],
    "bootstrap/app.php": LARAVEL_ERRORS["bootstrap/app.php"],  # the same app-wide handler
    "app/Jobs/SendBirthdayReminders.php": """<?php

namespace App\\Jobs;

use App\\Models\\Reminder;
use App\\Notifications\\BirthdayReminder;
use Illuminate\\Support\\Facades\\Log;

class SendBirthdayReminders
{
    public function handle(): void
    {
        $due = Reminder::where('remind_on', now()->toDateString())->where('sent', false)->get();

        foreach ($due as $reminder) {
            try {
                $reminder->user->notify(new BirthdayReminder($reminder->contact));
                $reminder->sent = true;
            } catch (\\Exception $e) {
                $reminder->failures = $reminder->failures + 1;
                Log::error('Sending the birthday reminder failed', ['reminder' => $reminder->id]);
            }
            $reminder->save();
        }
    }
}
""",
}

# a Django app: three code hosts' push hooks, each a subclass of the base hook that does the work
BASE_HOOK = """import re

from tickets.models import Ticket

REFERENCE = re.compile(r"tg-(\\d+) +#([-\\w]+)")


class BasePushEventHook:
    def __init__(self, payload):
        self.payload = payload

    def get_data(self):
        raise NotImplementedError

    def process_event(self):
        for commit in self.get_data():
            for ref, slug in REFERENCE.findall(commit["commit_message"].lower()):
                item = Ticket.objects.get(ref=ref)
                item.status = item.project.statuses.get(slug=slug)
                item.save()
"""


def provider_hook(name: str) -> str:
    return f"""from hooks.base import BasePushEventHook


class PushEventHook(BasePushEventHook):
    def get_data(self):
        {name}_user = self.payload.get("sender", {{}})
        return [
            {{
                "commit_id": commit.get("id"),
                "commit_message": commit.get("message").strip(),
                "commit_short_message": commit.get("message").split("\\n")[0].strip(),
                "commit_url": commit.get("url"),
                "user_name": {name}_user.get("login"),
                "user_url": {name}_user.get("html_url"),
            }}
            for commit in self.payload.get("commits", [])
        ]
"""


HOOKS = {
    "hooks/base.py": BASE_HOOK,
    "hooks/github/event_hooks.py": provider_hook("github"),
    "hooks/gitlab/event_hooks.py": provider_hook("gitlab"),
    "hooks/bitbucket/event_hooks.py": provider_hook("bitbucket"),
    "requirements.txt": "django>=4.2\n",
}


def chunks_of(app: dict[str, str]) -> list[Chunk]:
    chunks: list[Chunk] = []
    for path, text in app.items():
        language = next((lang for suffix, lang in LANGUAGES.items() if path.endswith(suffix)), None)
        if language is not None:
            chunks += chunk_file(SourceFile(path, language, text, len(text)))
    return chunks


def opening(question: str, app: dict[str, str], retrieved: list[str]) -> list[str]:
    """The answer's opening sentences; retrieval found the files in ``retrieved`` (best first)."""
    chunks = chunks_of(app)
    pool = [Hit(c, 1.0 / (1 + n), c.id) for n, c in enumerate(c for p in retrieved for c in chunks if c.path == p)]
    explanation = explain(question, AnswerContext.from_chunks(chunks, pool, retrieved))
    return [sentence.plain for sentence in lead_sentences(explanation)]


def opening_file(question: str, app: dict[str, str], retrieved: list[str]) -> str:
    """The file the answer's first sentence cites first."""
    first = opening(question, app, retrieved)[0]
    cited = re.search(r"([\w./-]+\.\w+):\d", first)
    assert cited is not None, first
    return cited.group(1)


def test_a_question_naming_its_subject_opens_on_the_code_holding_it_not_the_app_wide_error_handler() -> None:
    question = ("How do I get told about a friend's birthday on the right day, and what happens if sending that "
                "reminder keeps failing?")  # fmt: skip
    retrieved = ["app/Jobs/SendBirthdayReminders.php", "bootstrap/app.php"]
    assert opening_file(question, LARAVEL_REMINDERS, retrieved) == "app/Jobs/SendBirthdayReminders.php"
    later = opening(question, LARAVEL_REMINDERS, retrieved)[1:]  # the app-wide handler is still said, after it
    assert any("bootstrap/app.php" in sentence and "exception" in sentence for sentence in later), later


def test_a_question_about_the_mechanism_itself_still_opens_on_it() -> None:
    opened = opening_file("What happens when an API request fails?", LARAVEL_REMINDERS,
                          ["app/Jobs/SendBirthdayReminders.php", "bootstrap/app.php"])  # fmt: skip
    assert opened == "bootstrap/app.php"


def test_one_provider_of_a_family_gives_the_opening_to_the_code_they_share() -> None:
    question = ("If a developer writes the ticket number and a new status in a commit message on GitHub, how does "
                "the matching ticket get moved to that status?")  # fmt: skip
    retrieved = ["hooks/github/event_hooks.py", "hooks/base.py", "hooks/gitlab/event_hooks.py",
                 "hooks/bitbucket/event_hooks.py"]  # fmt: skip
    assert opening_file(question, HOOKS, retrieved) == "hooks/base.py"


def test_siblings_are_the_same_file_in_a_folder_named_differently() -> None:
    paths = ["hooks/github/event_hooks.py", "hooks/gitlab/event_hooks.py", "hooks/base.py", "plugins/slack/slack.ts",
             "plugins/github/github.ts", "hooks/github/api.py", "other/gitlab/event_hooks.py"]  # fmt: skip
    assert siblings("hooks/github/event_hooks.py", paths) == {"hooks/gitlab/event_hooks.py": 1}
    assert siblings("plugins/github/github.ts", paths) == {"plugins/slack/slack.ts": 1}
