"""Misleading sentences on two apps in no data set (probe28: changelog.com, a Phoenix app, and ntfy, a Go server):

- "`topicSubscriber (+2)` … defines a struct; `newTopic` is called by …; it is used by `topic.subscribersCopy`": the
  "it" reads as `newTopic`, while the struct is what `subscribersCopy` uses; a clause with another subject comes
  after every "it" clause (``relsaid``).
"""

from __future__ import annotations

from codeqa.answer.explanation.relsaid import Said, said_relations


def test_its_own_clauses_come_before_a_clause_naming_another_definition() -> None:
    called = [Said("`messageCache.Topics` (`server/message_cache.go:548-566`)", " for `newTopic`"),
              Said("`Server.topicsFromIDs` (`server/server.go:1623-1641`)", " for `newTopic`")]  # fmt: skip
    used = [Said("`topic.subscribersCopy` (`server/topic.go:194-207`)"),
            Said("`topic.Publish` (`server/topic.go:105-128`)", " for `subscriber`")]  # fmt: skip
    said = said_relations({"calls": [], "is called by": called, "is used by": used})
    assert said == (
        "; it is used by `topic.subscribersCopy` (`server/topic.go:194-207`)"
        "; `newTopic` is called by `messageCache.Topics` (`server/message_cache.go:548-566`) and"
        " `Server.topicsFromIDs` (`server/server.go:1623-1641`)"
        "; `subscriber` is used by `topic.Publish` (`server/topic.go:105-128`)"
    )
    clauses = said.split("; ")[1:]
    first_named = next(at for at, clause in enumerate(clauses) if not clause.startswith("it "))
    assert all(not clause.startswith("it ") for clause in clauses[first_named:])
