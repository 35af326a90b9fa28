"""The right part of a cited file (issue #35, "file-open"): the piece retrieval found first in the best file is shown.

Of the key facts an answer missed, many were in a file the answer cited, in another part of it than the one shown.
The file's pieces are chosen by the question's words in their lines; a piece that says the answer in its own words
(``dunning``: a declined charge is tried again, then the plan is cancelled) loses to pieces that repeat the
question's words in every line (a statement, a reminder, a receipt), while retrieval, which also weighs the
meaning and the names, ranks it first. The best file's best piece by retrieval now takes the file's first extra
place, so the answer shows its lines (here among "More places").

The app: a billing app whose renewals file holds three wordy message builders and the dunning rule; five other
files hold the question's words a little, so the answer's places are taken and nothing fills in for the rule.
"""

from __future__ import annotations

from codeqa.answer.explanation.calls.byname import holds_by_name
from codeqa.answer.explanation.calls.flow import Use
from codeqa.answer.explanation.code.keylines import evidence, question_terms
from codeqa.answer.explanation.constructs.candidate import Candidate
from codeqa.answer.explanation.sources.fileparts import retrieval_best, second_parts_in_place
from codeqa.answer.rendering.citations import check_citations
from codeqa.config import Settings
from codeqa.records import Chunk, Hit
from tests.helpers import ask_named, search_hits

BILLING = {
    "requirements.txt": "flask==3.0\n",
    "billing/renewals.py": '''"""Renewing customers' subscriptions each month."""
from datetime import timedelta

from billing.gateway import charge_card, schedule
from billing.mail import send

MAX_ATTEMPTS = 4


def renewal_summary(customer, subscription, payment):
    """The lines of the monthly statement."""
    lines = [f"Customer {customer.name}: card payment for subscription {subscription.plan}"]
    lines.append(f"Card payment of the subscription renewal for customer {customer.email}")
    lines.append(f"Subscription renewal payment by card: {payment.amount}")
    lines.append(f"The customer card on file for this subscription: {customer.card_last4}")
    lines.append(f"Renewal of the customer subscription, paid by card {payment.reference}")
    lines.append(f"Payment for the subscription renewal was taken from the customer card")
    return lines


def renewal_reminder(customer, subscription):
    """The e-mail sent a week before a renewal."""
    send(customer.email, f"Your subscription renewal: the card payment for customer {customer.name}")
    send(customer.email, f"Subscription renewal soon; the customer card will be charged for {subscription.plan}")
    send(customer.email, f"Customer {customer.name}, check the card for the subscription payment")
    send(customer.email, f"Renewal payment for your subscription, customer number {customer.id}")
    send(customer.email, f"The subscription payment is taken from the card of the customer")


def renewal_receipt(customer, subscription, payment):
    """The receipt after a renewal went through."""
    body = f"Customer {customer.name}: the subscription payment was taken from the card"
    body += f"\\nSubscription renewal payment {payment.amount} charged to the customer card"
    body += f"\\nThe card of customer {customer.email} paid the subscription renewal"
    body += f"\\nRenewal of subscription {subscription.plan}: card payment received from the customer"
    body += f"\\nPayment reference {payment.reference} for the customer subscription renewal by card"
    send(customer.email, body)


def dunning(subscription, attempt):
    """A declined charge is tried again, a day apart, up to MAX_ATTEMPTS times; then the plan is cancelled."""
    if attempt < MAX_ATTEMPTS:
        schedule(charge_card, subscription, delay=timedelta(days=1), attempt=attempt + 1)
        return
    subscription.cancel(reason="declined")
''',
    "billing/gateway.py": '''"""Talking to the card processor."""


def charge_card(subscription, attempt=1):
    """Charge the stored card once."""
    result = subscription.processor.charge(subscription.amount)
    return result.ok


def schedule(task, *args, delay, **kwargs):
    """Run a task later on the job queue."""
    task.queue.put((delay, task, args, kwargs))
''',
    "billing/mail.py": '''"""Sending e-mail."""


def send(address, body):
    """Queue one message."""
    print(address, body)
''',
    "billing/__init__.py": "",
    "billing/models.py": '''"""What the billing app stores."""


class Customer:
    def __init__(self, name, email, card_last4):
        self.name, self.email, self.card_last4 = name, email, card_last4


class Subscription:
    def cancel(self, reason):
        """The customer's subscription ends; the card is not charged at the next renewal."""
        self.status = "cancelled"
        self.reason = reason
''',
    "billing/views.py": '''"""The customer's billing pages."""


def subscription_page(request, customer):
    """Show the customer's subscription, the card on file and the next renewal date."""
    subscription = customer.subscription
    return {"customer": customer.name, "card": customer.card_last4, "renewal": subscription.renews_on}
''',
    "billing/admin.py": '''"""Staff tools for subscriptions."""


def cancel_subscription(staff, subscription):
    """Staff cancel a customer's subscription by hand, e.g. when the card was reported stolen."""
    subscription.cancel(reason=f"cancelled by {staff.name}")
''',
    "billing/invoices.py": '''"""Invoices for each renewal."""


def invoice_for_renewal(customer, subscription):
    """The invoice of one renewal of a customer's subscription, paid by card."""
    return {"customer": customer.name, "plan": subscription.plan, "card": customer.card_last4}
''',
    "billing/plans.py": '''"""The plans a customer can subscribe to."""


def change_plan(subscription, plan):
    """Move a subscription to another plan from its next renewal; the card is charged the new price."""
    subscription.next_plan = plan
''',
}

REFUNDS = {
    "requirements.txt": "flask==3.0\n",
    "refunds/__init__.py": "",
    "refunds/refunds.py": '''"""Customers' refunds: asked for, reviewed, approved."""
from refunds.notify import refund_email

MANAGER_LIMIT = 500


def review_refund(staff, refund):
    """Staff review a customer's refund: a refund up to the order total is approved."""
    if refund.amount <= refund.order.total:
        refund.status = "approved"
        refund.approved_by = staff
        refund_email(refund.customer, refund, "Your refund was approved and will be paid out to your card")
    else:
        refund.status = "rejected"
    refund.save()


def needs_manager(refund):
    """A customer's refund above MANAGER_LIMIT is approved by a manager, not by any staff member."""
    if refund.amount > MANAGER_LIMIT:
        refund.status = "waiting for a manager"
        refund.approved_by = None  # the refund is paid out once a manager approved it
        refund.customer.told = "Your refund waits for a manager"
        return True
    return False
''',
    "refunds/notify.py": '''"""Telling people about refunds."""
from refunds.mail import send

FINANCE_TEAM = "finance@refunds.example"


def refund_email(customer, refund, text):
    """The e-mail a customer gets about a refund: approved, or paid out."""
    send(customer.email, f"Refund {refund.id} for customer {customer.name}: {text}")
    refund.customer_told = True


def refund_paid_out(refund):
    """When a refund is paid out, the customer and the finance team are told, and the ledger gets a line."""
    send(refund.customer.email, f"Your refund of {refund.amount} was paid out")
    send(FINANCE_TEAM, f"Refund {refund.id} paid out to customer {refund.customer.id}")
    refund.order.ledger.append(("refund paid out", refund.amount))


def refund_statement(refund):
    """The lines of a refund on the customer's statement."""
    lines = [f"Refund {refund.id} for customer {refund.customer.name}: {refund.status}, paid out to the card"]
    lines.append(f"Refund of order {refund.order.id}, approved by {refund.approved_by}, paid out {refund.paid_on}")
    lines.append(f"Refund paid out to the customer card: {refund.amount}; the customer is told by e-mail")
    return lines
''',
    "refunds/mail.py": '''"""Sending e-mail."""


def send(address, body):
    """Queue one e-mail to a customer, for instance that a refund was paid out."""
    customer_outbox.append((address, body))  # the refund mails a customer is told by wait here
    print(address, body)
''',
    "refunds/views.py": '''"""The customer's pages."""


def order_page(request, order):
    """Show a customer's order and its refund."""
    refund = order.refund  # what the customer was told about the refund
    return {"order": order.id, "refund": order.refund_status, "customer": order.customer.name}
''',
    "refunds/models.py": '''"""What the shop stores."""


class Order:
    """A customer's order; a refund is booked against it."""

    refund = None  # the customer's refund, once asked for

    def __init__(self, customer, total):
        self.customer, self.total = customer, total
''',
    "refunds/admin.py": '''"""Staff tools."""


def block_customer(staff, customer):
    """Staff block a customer who asked for a refund too often."""
    customer.refund_blocked = True
    customer.blocked_by = staff
''',
    "refunds/reports.py": '''"""Monthly reports."""


def monthly_totals(orders):
    """The order totals of one month, less each customer's refund."""
    refunds = [order.refund for order in orders if order.customer]  # each customer's refund, paid out
    return sum(order.total for order in orders)
''',
}

INDEXED_APPS = {"billing": BILLING, "refunds": REFUNDS}  # indexed once by apps_home (conftest)

QUESTION = (
    "When a customer's card is declined at renewal, how many times is the charge retried before the subscription "
    "is cancelled?"
)
RULE = 'subscription.cancel(reason="declined")'  # the dunning rule's key line


def test_retrieval_ranks_the_rule_first_while_its_words_rank_it_fourth_in_its_file(apps_settings: Settings) -> None:
    hits = search_hits("billing", QUESTION, apps_settings, k=24)
    assert hits[0].chunk.symbol == "dunning"  # else this module tests nothing: retrieval must find the rule first
    renewals = [hit.chunk for hit in hits if hit.chunk.path == "billing/renewals.py" and hit.chunk.symbol]
    terms = question_terms(QUESTION)
    by_words = sorted(renewals, key=lambda chunk: -evidence(terms, chunk.text, top=8))
    assert [chunk.symbol for chunk in by_words].index("dunning") >= 3  # the three message builders hold more words


def test_the_answer_shows_the_piece_retrieval_found_first_in_the_best_file(apps_settings: Settings) -> None:
    result = ask_named("billing", QUESTION, apps_settings, backend="none").result()
    assert check_citations(result.text, result.sources).invalid == []
    assert "`dunning` (`billing/renewals.py:" in result.text, result.text
    assert RULE in result.text, result.text  # its key line, not only its name


def _chunk(start: int, symbol: str) -> Chunk:
    text = "\n".join([f"def {symbol}():", *["    pass"] * 9])
    return Chunk("app/billing.py", "python", start, start + 9, text, symbol, "function", "service")


def test_the_retrieval_best_piece_moves_up_to_second_only_from_below() -> None:
    a, b, c, d = _chunk(1, "a"), _chunk(11, "b"), _chunk(21, "c"), _chunk(31, "d")
    assert retrieval_best([a, b, c, d], [d, a], {}) == [a, d, b, c]  # fourth by words, first in the pool
    assert retrieval_best([a, b, c, d], [b, d], {}) == [a, b, c, d]  # already second: nothing moves
    assert retrieval_best([a, b, c, d], [a, d], {}) == [a, b, c, d]  # already first
    assert retrieval_best([a, b, c, d], [], {}) == [a, b, c, d]
    joined = Chunk("app/billing.py", "python", 21, 40, "\n".join([c.text, d.text]), "c", "function", "service")
    pieces: dict[str, tuple[str, ...]] = {
        joined.id: (c.id, d.id)
    }  # the pool's best piece is read in the definition it was joined into
    assert retrieval_best([a, b, joined], [d], pieces) == [a, joined, b]


REFUND_QUESTION = "How does a customer's refund get approved, and who is told when the refund is paid out?"
MANAGER = 'refund.customer.told = "Your refund waits for a manager"'  # a key line of the second part of refunds.py


def test_the_second_part_of_the_second_file_takes_the_weakest_lower_place(apps_settings: Settings) -> None:
    """notify.py, first, takes both extra places; refunds.py, second, shows review_refund, and its second part (a
    large refund waits for a manager) weighs more than the lower files' sources (a model, a mailer, a report), each
    holding a word or two: it takes the weakest one's place, after the order and the opening were chosen."""
    result = ask_named("refunds", REFUND_QUESTION, apps_settings, backend="none").result()
    assert check_citations(result.text, result.sources).invalid == []
    assert "`needs_manager` (`refunds/refunds.py:" in result.text, result.text
    assert MANAGER in result.text, result.text
    assert "- **[1]** `refund_paid_out` (`refunds/notify.py:" in result.text, result.text  # the opening stays


def _candidate(chunk: Chunk) -> Candidate:
    return Candidate(Hit(chunk, 0.0, chunk.id), 1.0, [], 0, True)


def test_a_second_part_takes_the_weakest_place_in_place_and_never_the_opening() -> None:
    lead, other, weak, second = _chunk(1, "lead"), _chunk(11, "other"), _chunk(21, "weak"), _chunk(31, "second")
    swap = [(weak, _candidate(second))]
    placed = second_parts_in_place([_candidate(c) for c in (lead, weak, other)], swap)
    assert [c.chunk.symbol for c in placed] == ["lead", "second", "other"]  # in the weakest one's place
    placed = second_parts_in_place([_candidate(c) for c in (weak, other)], swap)
    assert [c.chunk.symbol for c in placed] == ["weak", "other"]  # the opening is never swapped out
    placed = second_parts_in_place([_candidate(c) for c in (lead, second, weak)], swap)
    assert [c.chunk.symbol for c in placed] == ["lead", "second", "weak"]  # already shown: nothing to swap
    placed = second_parts_in_place([_candidate(c) for c in (lead, other)], swap)
    assert [c.chunk.symbol for c in placed] == ["lead", "other"]  # the weakest is not shown: nothing to swap


GENERATOR = """package me.example.service;

public class GeneratorServiceImpl {
    public Object getTables() {
        String sql = "select table_name from information_schema.tables where table_schema = (select database())";
        Query query = em.createNativeQuery(sql);
        return query.getResultList();
    }

    public List<ColumnInfo> query(String tableName) {
        String sql = "select column_name from information_schema.columns where table_name = ?";
        Query query = em.createNativeQuery(sql);
        query.setParameter(1, tableName);
        return query.getResultList();
    }

    public List<ColumnInfo> getColumns(String tableName) {
        return query(tableName);
    }
}
"""


def test_a_local_variable_named_like_a_method_is_no_use_of_the_method() -> None:
    """A second part shown beside its file's first (eladmin's ``query`` beside ``getTables``) said ``getTables``
    uses ``query``: the name there is ``getTables``'s own variable."""
    path, lines = "service/impl/GeneratorServiceImpl.java", GENERATOR.split("\n")

    def method(symbol: str, start: int, end: int) -> Chunk:  # the lines tree-sitter gives each method
        return Chunk(path, "java", start, end, "\n".join(lines[start - 1 : end]), symbol, "method", "service")

    tables = method("GeneratorServiceImpl.getTables", 4, 8)
    query = method("GeneratorServiceImpl.query", 10, 15)
    columns = method("GeneratorServiceImpl.getColumns", 17, 19)
    assert "Query query = em.createNativeQuery(sql);" in tables.text and "return query(tableName);" in columns.text
    read = Use("query", 7, "uses", "        return query.getResultList();")
    assert not holds_by_name(tables, query, read, GENERATOR)
    called = Use("query", 19, "calls", "        return query(tableName);")
    assert holds_by_name(columns, query, called, GENERATOR)  # a call of the method still holds
    bound = "    Query query = query(tableName);\n    return query.getResultList();"  # the variable holds its result
    caller = Chunk(path, "java", 4, 5, bound, "GeneratorServiceImpl.firstColumn", "method", "service")
    assert holds_by_name(caller, query, Use("query", 5, "uses", "    return query.getResultList();"), GENERATOR)
