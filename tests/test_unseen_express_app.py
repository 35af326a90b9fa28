"""What was false on uptime-kuma, an Express + Vue app (782 files) in no data set, read as a user does: "the code at
`server/monitor-types/globalping.js:190-241` throws `Error`, which becomes an error response" for a monitor that
checks a remote API (its error marks the monitor down; no response is made): a throw is said as a throw."""

from __future__ import annotations

from codeqa.answer.explanation.constructs.mechanism import matches_in
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


ACCOUNT_SERVICE = """export class AccountService {
  private readonly userIdentity = signal<Account | null>(null);

  authenticate(identity: Account | null): void {
    this.userIdentity.set(identity);
  }

  identity(force?: boolean): Observable<Account | null> {
    return this.accountCache$.pipe(catchError(() => of(null)));
  }
}"""


def test_a_bare_name_is_no_use_of_a_class_method():
    # dev (jhipster-03): "`AccountService` uses `identity`" for a parameter named `identity`; nestjs-03: a
    # controller's own `constructor(` said to call the service's constructor
    from codeqa.answer.explanation.calls.byname import holds_by_name
    from codeqa.answer.explanation.calls.flow import Use

    path = "src/main/webapp/app/core/auth/account.service.ts"
    lines = ACCOUNT_SERVICE.split("\n")
    head = "\n".join(lines[:7])
    user = Chunk(path, "typescript", 1, 7, head, "AccountService, AccountService.authenticate", "class", "service")
    used = Chunk(path, "typescript", 8, 11, "\n".join(lines[7:]), "AccountService.identity", "method", "service")
    use = Use("identity", 5, "uses", "this.userIdentity.set(identity);")
    assert not holds_by_name(user, used, use, ACCOUNT_SERVICE)
    called = Use("identity", 5, "calls", "return this.accountService.identity(true);")
    assert holds_by_name(user, used, called, ACCOUNT_SERVICE)  # through a receiver it is still checked as before
