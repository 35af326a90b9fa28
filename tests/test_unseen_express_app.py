"""What was false on uptime-kuma, an Express + Vue app (782 files) in no data set, read as a user does: "the code at
`server/monitor-types/globalping.js:190-241` throws `Error`, which becomes an error response" for a monitor that
checks a remote API (its error marks the monitor down; no response is made): a throw is said as a throw."""

from __future__ import annotations

from codeqa.answer.explanation.mechanism import matches_in
from codeqa.frameworks.conventions import load_all
from codeqa.frameworks.intent import intents
from codeqa.records import Chunk

GLOBALPING = """    async http(monitor, heartbeat) {
        const res = await this.globalping.createMeasurement(opts);
        if (!res.ok) {
            throw new Error(`Failed to create measurement: ${this.formatApiError(res.data.error)}`);
        }
    }"""


def test_a_throw_is_not_said_to_become_an_error_response():
    express = [c for c in load_all() if c.name in ("Express", "any framework")]
    monitor = Chunk("server/monitor-types/globalping.js", "javascript", 190, 195, GLOBALPING,
                    "GlobalpingMonitorType.http", "method", "service")  # fmt: skip
    said = [m.phrase for m in matches_in(monitor, express, intents("What happens when an API request fails?"))]
    assert "throws `Error`" in said
    assert not [phrase for phrase in said if "error response" in phrase]
