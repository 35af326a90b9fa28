"""How a source's sentence says what it calls and what calls it: "it calls `A` (…) and `B` (…)".

A relation made by another definition of the chunk than the one the sentence names carries a clause naming that one
(``from `Sleep.clean```; ``for `getRefreshToken``` when a caller reaches another definition of the chunk). Alone in
its list the clause reads true ("it calls `validate_duration` (…) from `Sleep.clean`"); among others it does not:
"it calls `NapSettings` (…) and `validate_duration` (…) from `Sleep.clean`" says `Sleep.clean` calls both, while
the class body makes the first call. So in a list of several, a relation with a clause is said with the definition
the clause names as its subject: "it calls `NapSettings` (…); `Sleep.clean` calls `validate_duration` (…)". Those
come after every clause of its own, whose "it" would otherwise read as the named one ("`newTopic` is called by …; it
is used by `subscribersCopy`" for a struct beside ``newTopic``).
"""

from __future__ import annotations

import re
from typing import NamedTuple

CLAUSE = re.compile(r"^ (?:from|for) (?P<subject>`.+`)$")


class Said(NamedTuple):
    """One related definition as said: its cited name, the clause placing it (" from `X`", or ""), and what follows
    (what the callee does, where the caller calls)."""

    named: str
    clause: str = ""
    rest: str = ""

    def whole(self) -> str:
        return self.named + self.clause + self.rest


def join(items: list[str]) -> str:
    return items[0] if len(items) == 1 else ", ".join(items[:-1]) + " and " + items[-1]


def said_relations(phrases: dict[str, list[Said]]) -> str:
    """The clauses of a source's sentence after its role: "; it calls …; it is called by …" (see the docstring)."""
    own: list[str] = []  # "it …" clauses, said before any other subject's: after "; `newTopic` is called by …",
    others: list[str] = []  # "; it is used by …" would read as said of `newTopic`
    for phrase, items in phrases.items():
        if not items:
            continue
        if len(items) == 1 or not any(item.clause for item in items):
            own.append(f"; it {phrase} {join([item.whole() for item in items])}")
            continue
        groups: dict[str, list[str]] = {}
        for item in items:
            found = CLAUSE.match(item.clause)
            subject = found.group("subject") if found else ""
            groups.setdefault(subject, []).append(item.named + item.rest if found else item.whole())
        for subject, said in groups.items():
            (others if subject else own).append(f"; {subject or 'it'} {phrase} {join(said)}")
    return "".join(own + others)
