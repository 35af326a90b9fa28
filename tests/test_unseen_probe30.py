# ruff: noqa: E501 - the fixture is the real code, lines as long as they are
"""False and misleading sentences on two apps in no data set (probe30: saleor, a Django GraphQL shop, and cachet, a
Laravel status page):

- "`CacheControl.handle` … is middleware: it runs before the request reaches the controller" for Laravel middleware
  whose first statement is ``$response = $next($request);``: its code runs after the controller, on the response.
  The body under a PSR-12 brace on its own line is now read (``mechanism._opened``), and such an after-middleware is
  said as what it is (``laravel.toml``).
- "`OrderFulfillmentLineInfo` (`saleor/order/actions.py:58-123`) is the closest match found:
  `WebhookEventAsyncType.ORDER_FULLY_PAID`": the line is an item of the module's set ``WEBHOOK_EVENTS_FOR_FULLY_PAID``
  below the class the chunk is named after; the opening names the file for a module's statement
  (``quoted_line.quoted_holder``).
- "`complete_checkout_with_payment` is the closest match found: `payment, customer_id, order_data =
  complete_checkout_pre_payment_part(…)` (line 1859). Then `complete_checkout_with_payment` stores
  `checkout.save(update_fields=["completing_started_at"])` (line 1850)": "Then" reads as after the quoted line, and
  the write comes before it; an outcome above the quote in the same definition is not said (``told.after_quote``).
- "`_calculate_product_price_with_taxes` … ends in `return TaxedMoney(price, price)`": that is the untaxed case; the
  ``if`` above it returns the flat-rate tax. Two returns that are the cases of one test are each one ending of two,
  as an ``else``'s return already is (``exits.case_above``); a guard's ``return None`` above the work is no case.
- "`CreateIncidentUpdateCommand` … uses `user` (`app/Models/Incident.php:139-208`)": ``$this->user = $user;`` sets
  the command's own property; the file's top-level ``use CachetHQ\\Cachet\\Models\\Incident;`` was read as a trait
  used in the class, the line break above it taken for an indent (``byname._INHERITS``).
- "`SubscribeController.postManage` handles the request: `return redirect()->to(…)` (line 215)": line 215 is the
  answer of ``catch (ValidationException $e)``; line 221 answers alike after the update. Of lines as good, the
  opening quotes one outside a handler, and a handler's is said with its type (``quoted_line``).
- "`check_attribute_type_permissions` … calls `PermissionDenied`" in the opening's call chain, where the source
  below says it throws it (``raise PermissionDenied(…)``): each link of the chain is said with its verb (``lead``).
- "`ScheduleController.addScheduleAction` … runs in the background or on a schedule": a dashboard action creating a
  maintenance window; ``Schedule::UPCOMING`` is the app's model named Schedule, not Laravel's scheduler, whose calls
  the construct now asks for (``laravel.toml``).
- "`app.js` … is the file's top-level code. Its documentation says: “Polyfill promises.”": the comment is the note
  of the statement below it, one of several commented statements; at the file's top as in its middle, such a
  comment is not the file's documentation (``leading.comment_is_its_own``).
"""

from __future__ import annotations

from dataclasses import replace

from codeqa.answer.context import AnswerContext
from codeqa.answer.explanation.calls.byname import holds_by_name
from codeqa.answer.explanation.calls.flow import find_uses
from codeqa.answer.explanation.code.keylines import KeyLine, question_terms
from codeqa.answer.explanation.code.outline import summary
from codeqa.answer.explanation.constructs.mechanism import matches_in
from codeqa.answer.explanation.explain import Step
from codeqa.answer.explanation.said.extractive import extractive_answer
from codeqa.answer.explanation.said.quoted_line import best_line, branch_of, quoted_holder
from codeqa.answer.explanation.said.told import after_quote
from codeqa.answer.explanation.story.endings import outcome_of
from codeqa.chunk import chunk_file
from codeqa.frameworks.conventions import load_all
from codeqa.frameworks.intent import intents
from codeqa.records import Chunk, Hit, SourceFile
from codeqa.retrieve.question import Question

CACHE_CONTROL = """class CacheControl
{
    /**
     * Handle an incoming request.
     *
     * @param \\Illuminate\\Http\\Request $request
     * @param \\Closure                 $next
     *
     * @return mixed
     */
    public function handle(Request $request, Closure $next)
    {
        $response = $next($request);

        $maxAge = time() + 30;

        $response->header('Cache-Control', 'public,max-age='.$maxAge);

        return $response;
    }
}"""

API_AUTHENTICATION = """class ApiAuthentication
{
    public function handle(Request $request, Closure $next, $required = false)
    {
        if ($this->auth->guest()) {
            if ($apiToken = $request->header('X-Cachet-Token')) {
                try {
                    $this->auth->onceUsingId(User::findByApiToken($apiToken)->id);
                } catch (ModelNotFoundException $e) {
                    if ($required) {
                        throw new HttpException(401);
                    }
                }
            } elseif ($required) {
                throw new HttpException(401);
            }
        }

        return $next($request);
    }
}"""

QUESTION = "How does user authentication flow through the system?"


def _middleware_phrases(text: str, path: str, question: str = QUESTION) -> list[str]:
    laravel = [c for c in load_all() if c.name in ("Laravel", "any framework")]
    chunk = Chunk(path, "php", 17, 17 + text.count("\n"), text, "CacheControl", "class", "api")
    return [m.phrase for m in matches_in(chunk, laravel, intents(question)) if "middleware" in m.phrase]


def test_an_after_middleware_is_not_said_to_run_before_the_controller() -> None:
    logging = "Where would I add logging to track user behavior?"
    said = _middleware_phrases(CACHE_CONTROL, "app/Http/Middleware/CacheControl.php", logging)
    assert said, said
    assert not any("before the request reaches the controller" in phrase for phrase in said), said
    assert any("hands the request on first" in phrase for phrase in said), said
    # asked how users sign in, code that runs after the controller is no gate: not said at all
    assert _middleware_phrases(CACHE_CONTROL, "app/Http/Middleware/CacheControl.php") == []


def test_a_middleware_checking_the_request_first_still_runs_before_the_controller() -> None:
    said = _middleware_phrases(API_AUTHENTICATION, "app/Http/Middleware/ApiAuthentication.php")
    assert any("before the request reaches the controller" in phrase for phrase in said), said
    assert not any("hands the request on first" in phrase for phrase in said), said


def test_a_one_line_after_middleware_with_its_brace_on_the_head_line_is_read_too() -> None:
    text = CACHE_CONTROL.replace("$next)\n    {", "$next) {").replace(
        "$response = $next($request);", "return $next($request)->header('X-Frame-Options', 'DENY');"
    )
    said = _middleware_phrases(
        text, "app/Http/Middleware/FrameGuard.php", "Where would I add logging to track user behavior?"
    )
    assert any("hands the request on first" in phrase for phrase in said), said


ORDER_ACTIONS = """import logging
from typing import TypedDict

from ..webhook.event_types import WebhookEventAsyncType
from .models import OrderLine

logger = logging.getLogger(__name__)

OrderLineIDType = UUID
QuantityType = int
MARK_AS_PAID_TRANSACTION_NAME = "Mark-as-paid transaction"


class OrderFulfillmentLineInfo(TypedDict):
    order_line: OrderLine
    quantity: int


WEBHOOK_EVENTS_FOR_ORDER_FULFILLED = {
    WebhookEventAsyncType.ORDER_FULFILLED,
    WebhookEventAsyncType.ORDER_UPDATED,
}
WEBHOOK_EVENTS_FOR_FULLY_PAID = {
    WebhookEventAsyncType.ORDER_UPDATED,
    WebhookEventAsyncType.ORDER_FULLY_PAID,
}


def handle_fully_paid_order(manager, order, user=None, app=None):
    events.order_fully_paid_event(order=order, user=user, app=app)
    call_order_events(manager, [WebhookEventAsyncType.ORDER_FULLY_PAID], order)
"""


def _chunk_holding(text: str, path: str, needle: str) -> tuple[Chunk, KeyLine]:
    chunks = chunk_file(SourceFile(path, "python", text, len(text)))
    for chunk in chunks:
        for offset, line in enumerate(chunk.text.split("\n")):
            if needle in line:
                return chunk, KeyLine(chunk.start_line + offset, line.strip())
    raise AssertionError(f"{needle!r} is in no chunk of {[c.symbol for c in chunks]}")


def test_a_module_statement_quoted_from_a_chunk_named_after_its_class_is_the_files() -> None:
    item = "    WebhookEventAsyncType.ORDER_FULLY_PAID,"
    chunk, line = _chunk_holding(ORDER_ACTIONS, "saleor/order/actions.py", item)
    assert "OrderFulfillmentLineInfo" in chunk.symbol  # the chunk is named after the class it also holds
    assert quoted_holder(chunk, line) == "actions.py"


def test_a_line_of_the_class_or_a_function_is_still_theirs() -> None:
    chunk, line = _chunk_holding(ORDER_ACTIONS, "saleor/order/actions.py", "quantity: int")
    assert quoted_holder(chunk, line) == "OrderFulfillmentLineInfo"
    chunk, line = _chunk_holding(ORDER_ACTIONS, "saleor/order/actions.py", "call_order_events(")
    assert quoted_holder(chunk, line) == "handle_fully_paid_order"


COMPLETE_CHECKOUT = """def complete_checkout_with_payment(
    manager: "PluginsManager",
    checkout_pk: UUID,
    user,
    app,
    site_settings=None,
) -> tuple[Order | None, bool, dict]:
    \"\"\"Logic required to finalize the checkout and convert it to order.\"\"\"
    with transaction_with_commit_on_errors():
        checkout = Checkout.objects.select_for_update().filter(pk=checkout_pk).first()
        if not checkout:
            order = Order.objects.get_by_checkout_token(checkout_pk)
            return order, False, {}

        checkout.completing_started_at = timezone.now()
        checkout.save(update_fields=["completing_started_at"])

        lines, _ = fetch_checkout_lines(checkout)
        checkout_info = fetch_checkout_info(checkout, lines, manager)
        payment, customer_id, order_data = complete_checkout_pre_payment_part(
            manager=manager,
            checkout_info=checkout_info,
            lines=lines,
        )

        _reserve_stocks_without_availability_check(checkout_info, lines)

    order, action_required, action_data = complete_checkout_post_payment_part(
        manager=manager,
        checkout_info=checkout_info,
        order_data=order_data,
    )
    if checkout.pk:
        checkout.completing_started_at = None
        checkout.save(update_fields=["completing_started_at"])
    return order, action_required, action_data"""


def test_an_outcome_above_the_quoted_line_of_the_same_function_does_not_follow_it() -> None:
    start = 1824
    chunk = Chunk("saleor/checkout/complete_checkout.py", "python", start, start + COMPLETE_CHECKOUT.count("\n"),
                  COMPLETE_CHECKOUT, "complete_checkout_with_payment", "function", "core")  # fmt: skip
    rows = chunk.text.split("\n")
    at = {needle: next(KeyLine(start + n, row) for n, row in enumerate(rows) if needle in row)
          for needle in ("checkout.save(", "= complete_checkout_pre_payment_part(")}  # fmt: skip
    lead = Step(1, Hit(chunk, 1.0, chunk.id), "function", list(at.values()), "")
    before, after = at["checkout.save("], KeyLine(start + len(rows) - 2, rows[-2])  # the first save, the last one
    found = [("stores with", lead, before), ("stores with", lead, after)]
    kept = after_quote(found, lead, at["= complete_checkout_pre_payment_part("])
    assert [item[2].line for item in kept] == [after.line]
    assert after_quote(found, lead, None) == found  # no quote: nothing to follow


def test_an_outcome_of_another_source_is_not_weighed_against_the_quote() -> None:
    chunk = Chunk("saleor/checkout/complete_checkout.py", "python", 1824, 1824 + COMPLETE_CHECKOUT.count("\n"),
                  COMPLETE_CHECKOUT, "complete_checkout_with_payment", "function", "core")  # fmt: skip
    other = Chunk("saleor/order/utils.py", "python", 713, 714, "def match_orders_with_new_user(user: User) -> None:\n"
                  "    Order.objects.confirmed().filter(user_email=user.email, user=None).update(user=user)",
                  "match_orders_with_new_user", "function", "core")  # fmt: skip
    lead = Step(1, Hit(chunk, 1.0, chunk.id), "function", [], "")
    step = Step(2, Hit(other, 0.9, other.id), "function", [], "")
    found = [("stores with", step, KeyLine(714, other.text.split("\n")[1]))]
    assert after_quote(found, lead, KeyLine(1859, "payment, customer_id, order_data = …")) == found


PRICE_WITH_TAXES = """def _calculate_product_price_with_taxes(
    price: Money,
    tax_rate: Decimal,
    tax_calculation_strategy: str,
    prices_entered_with_tax: bool,
):
    # Currently only FLAT_RATES strategy allows calculating taxes for product types;
    # support for apps will be added in the future.
    if tax_calculation_strategy == TaxCalculationStrategy.FLAT_RATES:
        return calculate_flat_rate_tax(price, tax_rate, prices_entered_with_tax)
    return TaxedMoney(price, price)"""


def _outcome(text: str, name: str, language: str = "python", path: str = "saleor/product/utils/availability.py"):
    chunk = Chunk(path, language, 76, 76 + text.count("\n"), text, name, "function", "core")
    return outcome_of(chunk, name)


def test_the_return_below_an_if_returning_something_else_is_not_where_the_function_ends() -> None:
    assert _outcome(PRICE_WITH_TAXES, "_calculate_product_price_with_taxes") is None


def test_a_return_below_a_guard_still_ends_the_function() -> None:
    guarded = PRICE_WITH_TAXES.replace("return calculate_flat_rate_tax(price, tax_rate, prices_entered_with_tax)",
                                       "return None")  # fmt: skip
    found = _outcome(guarded, "_calculate_product_price_with_taxes")
    assert found is not None and found.text == "return TaxedMoney(price, price)", found


def test_the_two_cases_of_one_test_in_php_braces_are_one_ending_of_two_each() -> None:
    php = """    public function getPrice(Product $product)
    {
        if ($this->taxes->enabled()) {
            return $this->taxes->apply($product->price);
        }

        return $product->price;
    }"""
    assert _outcome(php, "getPrice", "php", "app/Services/PriceService.php") is None
    longer = php.replace("        return $product->price;", "        $price = $this->discounts->apply($product);\n"
                         "        $this->log->info($price);\n        return $price->rounded();")  # fmt: skip
    found = _outcome(longer, "getPrice", "php", "app/Services/PriceService.php")
    assert found is not None and found.text == "return $price->rounded();", found  # the if is a short cut above


COMMAND_FILE = """<?php

namespace CachetHQ\\Cachet\\Bus\\Commands\\IncidentUpdate;

use CachetHQ\\Cachet\\Models\\Incident;
use CachetHQ\\Cachet\\Models\\User;

final class CreateIncidentUpdateCommand
{
    public $incident;

    public $user;

    public $rules = [
        'incident'         => 'required',
        'user'             => 'required',
    ];

    public function __construct(Incident $incident, $status, $message, User $user)
    {
        $this->incident = $incident;
        $this->user = $user;
    }
}
"""

INCIDENT_MODEL = """    public function updates()
    {
        return $this->hasMany(IncidentUpdate::class)->orderBy('created_at', 'desc');
    }

    /**
     * Get the user relation.
     */
    public function user()
    {
        return $this->belongsTo(User::class);
    }
}"""


def _php(path: str, text: str, start: int, symbol: str) -> Chunk:
    return Chunk(path, "php", start, start + text.count("\n"), text, symbol, "class", "model")


def _user_links(command_file: str) -> list[bool]:
    command = _php("app/Bus/Commands/IncidentUpdate/CreateIncidentUpdateCommand.php", command_file, 1,
                   "CreateIncidentUpdateCommand")  # fmt: skip
    incident = _php("app/Models/Incident.php", INCIDENT_MODEL, 190, "Incident, Incident.updates, Incident.user")
    # as ``flow.link`` hands it on: the name without its ``@member`` mark
    uses = [replace(use, name=use.name.split("@")[0]) for use in find_uses(command, incident) if "->user" in use.text]
    assert uses, find_uses(command, incident)
    return [holds_by_name(command, incident, use, command_file) for use in uses]


def test_this_property_of_a_class_importing_a_model_is_not_the_models_method() -> None:
    assert _user_links(COMMAND_FILE) == [False]


def test_this_method_of_a_trait_the_class_uses_is_still_the_traits() -> None:
    with_trait = COMMAND_FILE.replace("{\n    public $incident;", "{\n    use Incident;\n\n    public $incident;")
    assert all(_user_links(with_trait))


POST_MANAGE = """    public function postManage($code = null)
    {
        if ($code === null) {
            throw new NotFoundHttpException();
        }

        $subscriber = Subscriber::where('verify_code', '=', $code)->first();

        if (!$subscriber) {
            throw new BadRequestHttpException();
        }

        try {
            execute(new UpdateSubscriberSubscriptionCommand($subscriber, Binput::get('subscriptions')));
        } catch (ValidationException $e) {
            return redirect()->to(URL::signedRoute(cachet_route_generator('subscribe.manage'), ['code' => $subscriber->verify_code]))
                ->withInput(Binput::all())
                ->withErrors($e->getMessageBag());
        }

        return redirect()->to(URL::signedRoute(cachet_route_generator('subscribe.manage'), ['code' => $subscriber->verify_code]))
            ->withSuccess(sprintf('%s %s', trans('dashboard.notifications.awesome'), trans('cachet.subscriber.email.updated-subscribe')));
    }"""


def _manage() -> tuple[Chunk, list[KeyLine]]:
    chunk = Chunk("app/Http/Controllers/SubscribeController.php", "php", 200, 200 + POST_MANAGE.count("\n"),
                  POST_MANAGE, "SubscribeController.postManage", "method", "api")  # fmt: skip
    lines = [KeyLine(200 + n, line.rstrip()) for n, line in enumerate(POST_MANAGE.split("\n")) if "redirect()" in line]
    return chunk, lines


def _quoted(question: str) -> KeyLine | None:
    chunk, lines = _manage()
    parsed = Question.parse(question)
    return best_line(Step(1, Hit(chunk, 1.0, chunk.id), "api", lines, ""), question_terms(parsed), parsed.intents)


def test_of_lines_as_good_the_opening_quotes_the_one_outside_an_exception_handler() -> None:
    chunk, lines = _manage()
    quoted = _quoted("How does a subscriber manage their subscriptions?")
    assert quoted is not None and quoted.line == lines[1].line, quoted
    assert branch_of(chunk, quoted) == ("", "")


def test_a_handlers_answer_quoted_is_said_with_the_exception_it_answers() -> None:
    chunk, lines = _manage()
    md, plain = branch_of(chunk, lines[0])
    assert plain == " for a ValidationException" and md == " for a `ValidationException`", (md, plain)


PERMISSIONS = """from collections.abc import Iterable

from ....core.exceptions import PermissionDenied
from ...core.mutations import BaseMutation


def check_attribute_type_permissions(
    mutation_cls: type[BaseMutation], context, attribute_types: Iterable[str]
) -> None:
    \"\"\"Require the permission matching each of the given attribute types.\"\"\"
    attribute_types_set = set(attribute_types)
    missing_permissions = [
        permission
        for attribute_type, permission in ATTRIBUTE_TYPE_PERMISSION_MAP.items()
        if attribute_type in attribute_types_set
        and not mutation_cls.check_permissions(context, (permission,))
    ]
    if missing_permissions:
        raise PermissionDenied(permissions=missing_permissions)"""

PERMISSION_DENIED = """class PermissionDenied(Exception):
    def __init__(self, message=None, *, permissions: Iterable[Enum] | None = None):
        if not message:
            if permissions:
                permission_list = ", ".join(p.name for p in permissions)
                message = (
                    f"You need one of the following permissions: {permission_list}"
                )
            else:
                message = "You do not have permission to perform this action"
        super().__init__(message)
        self.permissions = permissions"""


def test_a_raise_in_the_openings_call_chain_is_said_as_thrown() -> None:
    check = Chunk("saleor/graphql/attribute/mutations/permissions.py", "python", 1, 1 + PERMISSIONS.count("\n"),
                  PERMISSIONS, "check_attribute_type_permissions", "function", "api")  # fmt: skip
    denied = Chunk("saleor/core/exceptions.py", "python", 72, 72 + PERMISSION_DENIED.count("\n"), PERMISSION_DENIED,
                   "PermissionDenied", "class", "core")  # fmt: skip
    hits = [Hit(check, 1.0, check.id), Hit(denied, 0.9, denied.id)]
    answer = extractive_answer("How does a GraphQL mutation check the caller's permissions?", hits,
                               context=AnswerContext.from_chunks([check, denied], hits))  # fmt: skip
    opening = answer.split("\n")[0]
    assert "throws `PermissionDenied`" in opening, opening
    assert "calls `PermissionDenied`" not in opening, opening


ADD_SCHEDULE = """    public function addScheduleAction()
    {
        try {
            execute(new CreateScheduleCommand(
                Binput::get('name'),
                Binput::get('status', Schedule::UPCOMING),
                Binput::get('scheduled_at'),
            ));
        } catch (ValidationException $e) {
            return cachet_redirect('dashboard.schedule.create')->withErrors($e->getMessageBag());
        }

        $schedule = Schedule::query();
        $schedule->sort('scheduled_at', true);

        return cachet_redirect('dashboard.schedule');
    }"""

CONSOLE_KERNEL = """    protected function schedule(Schedule $schedule)
    {
        $schedule->command('cachet:beacon')->twiceDaily(0, 12);
        Schedule::job(new PruneNotes())->daily();
    }"""


def _job_phrases(text: str, path: str) -> list[str]:
    laravel = [c for c in load_all() if c.name in ("Laravel", "any framework")]
    chunk = Chunk(path, "php", 86, 86 + text.count("\n"), text, "ScheduleController.addScheduleAction", "method", "api")
    found = matches_in(chunk, laravel, intents("How is a scheduled maintenance created and shown on the status page?"))
    return [m.phrase for m in found if "schedule" in m.phrase]


def test_an_apps_model_named_schedule_is_not_the_scheduler() -> None:
    assert _job_phrases(ADD_SCHEDULE, "app/Http/Controllers/Dashboard/ScheduleController.php") == []


def test_the_schedulers_calls_still_run_on_a_schedule() -> None:
    said = _job_phrases(CONSOLE_KERNEL, "app/Console/Kernel.php")
    assert said and all(phrase == "runs in the background or on a schedule" for phrase in said), said


APP_JS = """/**
 * Polyfill promises.
 */
const Promise = require('promise')

/**
 * First we will load all of this project's JavaScript dependencies which
 * includes Vue and other libraries. It is a great starting point when
 * building robust, powerful web applications using Vue and Laravel.
 */

require('./bootstrap');

window.Vue = require('vue');

window.axios = require('axios');"""


def _module(text: str) -> Chunk:
    return Chunk("resources/assets/js/app.js", "javascript", 1, 1 + text.count("\n"), text, "", "module", "view")


def test_a_comment_over_the_first_of_several_commented_statements_is_no_files_documentation() -> None:
    assert summary(_module(APP_JS)) == ""


def test_a_files_opening_comment_is_still_its_documentation() -> None:
    alone = "/**\n * Boots the status page's scripts.\n */\nconst Promise = require('promise')\n\nwindow.Vue = require('vue');"
    assert summary(_module(alone)) == "Boots the status page's scripts."  # no other comment: the file's
