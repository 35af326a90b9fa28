"""False and misleading on Dispatch (FastAPI), mall (Spring Boot) and Solidus (Rails), apps in no data set, read as a
newcomer (probe 15):

- Dispatch, "How are plugins registered and called?": "``install_plugins`` (``src/dispatch/cli.py:75-137``) … is
  called by ``start_tasks`` … and ``consume_signals``": both import ``install_plugins`` from
  ``dispatch.common.utils.cli`` inside their own bodies and call that one, not the CLI command of the same name;
- mall, "How is an order created from the shopping cart?": "``OmsPortalOrderServiceImpl.list`` … calls
  ``andMemberIdEqualTo`` (``…/OmsCartItemExample.java:299-362``)": the chain starts on ``OmsOrderExample.Criteria
  criteria``, a nested class of another file (every MyBatis example class defines the method);
- Solidus, "How is a payment processed and captured?": "``capture!`` … calls ``Money.new``
  (``core/app/models/spree/money.rb:4-31``)": the line is ``::Money.new(…)``, the money gem's top-level class, not
  ``Spree::Money``;
- Dispatch, "What happens when an API request fails?": "Then ``db_session_middleware`` raises ``e from None`` when it
  catches ``Exception``": the middleware rolls back and raises the error it caught again, for the caller to handle;
- mall, "How is an order created from the shopping cart?": the opening quoted ``…listPromotion(currentMemb…``, a line
  cut in the middle of a name;
- Solidus, "Where would I add logging to track user behavior?": the opening led with ``UserLoggedIn``, a promotion
  condition, for its "logged": in code, "logged in" is a signed-in state, not the log;
- mall, "How does user authentication flow through the system?": "``JwtAuthenticationTokenFilter`` … loads the user and
  checks the credentials when someone signs in": the filter calls ``loadUserByUsername`` for a token, on every request;
  the phrase is a ``UserDetailsService``'s, whose method that is.
"""

from __future__ import annotations

from codeqa.answer.explanation.calls.byname import holds_by_name
from codeqa.answer.explanation.calls.flow import Use
from codeqa.answer.explanation.code.keylines import KeyLine, question_terms, term_score
from codeqa.answer.explanation.constructs.mechanism import matches_in
from codeqa.answer.explanation.explain import Step
from codeqa.answer.explanation.said.lead import QUOTE_CHARS, _quote
from codeqa.answer.explanation.said.outcomes import outcome_said_of
from codeqa.chunk.resolve.calls import call_sites, resolves_to
from codeqa.frameworks.conventions import load_all
from codeqa.frameworks.intent import intents
from codeqa.records import Chunk, Hit

DISPATCH_CLI = '''import click

from dispatch.plugins.base import plugins


@plugins_group.command("install")
def install_plugins(force):
    """Installs all plugins, or only one."""
    from dispatch.common.utils.cli import install_plugins
    from dispatch.plugin.models import PluginEvent

    install_plugins()
    event = PluginEvent(slug="x")


@dispatch_scheduler.command("start")
def start_tasks(tasks, exclude, eager):
    """Starts the scheduler."""
    from dispatch.common.utils.cli import install_plugins

    install_plugins()


def list_plugins():
    install_plugins()
'''


def _sites(written: str) -> dict[str, object]:
    return {site.caller: site for site in call_sites("src/dispatch/cli.py", DISPATCH_CLI) if site.written == written}


def test_a_function_that_imports_a_name_calls_the_import_not_the_files_namesake() -> None:
    sites = _sites("install_plugins")
    common, own = "src/dispatch/common/utils/cli.py", "src/dispatch/cli.py"
    for caller in ("install_plugins", "start_tasks"):  # each imports it in its own body
        assert resolves_to(sites[caller], own, common, "install_plugins"), caller
        assert not resolves_to(sites[caller], own, own, "install_plugins"), caller
    assert resolves_to(sites["list_plugins"], own, own, "install_plugins")  # no import of its own: the file's def
    (event,) = _sites("PluginEvent").values()
    assert resolves_to(event, own, "src/dispatch/plugin/models.py", "PluginEvent")


ORDER_LIST = """import com.macro.mall.model.OmsOrderExample;

public class OmsPortalOrderServiceImpl implements OmsPortalOrderService {
    @Override
    public CommonPage<OmsOrderDetail> list(Integer status, Integer pageNum, Integer pageSize) {
        UmsMember member = memberService.getCurrentMember();
        OmsOrderExample orderExample = new OmsOrderExample();
        OmsOrderExample.Criteria criteria = orderExample.createCriteria();
        criteria.andDeleteStatusEqualTo(0)
                .andMemberIdEqualTo(member.getId());
        return null;
    }
}"""

CRITERIA = """        public Criteria andMemberIdEqualTo(Long value) {
            addCriterion("member_id =", value, "memberId");
            return (Criteria) this;
        }"""


def _chunk(path: str, language: str, symbol: str, text: str, start: int = 1, kind: str = "method") -> Chunk:
    return Chunk(path, language, start, start + text.count("\n"), text, symbol, kind, "service")


def test_a_chain_on_a_nested_class_reaches_only_the_outer_classs_file() -> None:
    caller = _chunk("mall-portal/src/main/java/com/macro/mall/portal/service/impl/OmsPortalOrderServiceImpl.java",
                    "java", "OmsPortalOrderServiceImpl.list", ORDER_LIST)  # fmt: skip
    use = Use("andMemberIdEqualTo", 10, "calls", ".andMemberIdEqualTo(member.getId());")
    model = "mall-mbg/src/main/java/com/macro/mall/model/"
    cart = _chunk(model + "OmsCartItemExample.java", "java",
                  "OmsCartItemExample.GeneratedCriteria.andMemberIdEqualTo", CRITERIA, 299)  # fmt: skip
    order = _chunk(model + "OmsOrderExample.java", "java",
                   "OmsOrderExample.GeneratedCriteria.andMemberIdEqualTo", CRITERIA, 350)  # fmt: skip
    assert not holds_by_name(caller, cart, use, ORDER_LIST)
    assert holds_by_name(caller, order, use, ORDER_LIST)


CAPTURE = """module Spree
  class Payment < Spree::Base
    module Processing
      def capture!(amount = nil)
        money = ::Money.new(capture_amount, currency)
        capture_events.create!(amount: money.to_d)
      end
    end
  end
end"""

SPREE_MONEY = """  # Spree::Money is a relatively thin wrapper around Monetize which handles
  # formatting via Spree::Config.
  class Money
    include Comparable

    def initialize(amount, options = {})
      @money = Monetize.parse([amount, options[:currency]].join)
    end"""


def test_a_top_level_constant_is_no_namespaced_class() -> None:
    caller = _chunk("core/app/models/spree/payment/processing.rb", "ruby", "Spree.Payment.Processing.capture!", CAPTURE)
    nested = _chunk("core/app/models/spree/money.rb", "ruby", "Spree.Money", SPREE_MONEY, 4, "class")
    top = _chunk("lib/money.rb", "ruby", "Money", "class Money\n  def initialize(cents, currency)\n  end", 1, "class")
    use = Use("Money.new", 5, "calls", "money = ::Money.new(capture_amount, currency)")
    assert not holds_by_name(caller, nested, use, CAPTURE)
    assert holds_by_name(caller, top, use, CAPTURE)
    plain = Use("Money.new", 5, "calls", "money = Money.new(capture_amount, currency)")
    assert holds_by_name(caller, nested, plain, CAPTURE)  # written inside `module Spree`: Spree's own


MIDDLEWARE = """@api.middleware("http")
async def db_session_middleware(request: Request, call_next):
    try:
        response = await call_next(request)
        return response
    except Exception as e:
        # Explicitly rollback on exceptions
        try:
            if hasattr(request.state, "db") and request.state.db.is_active:
                request.state.db.rollback()
        except Exception as rollback_error:
            logging.error(f"Error during rollback: {rollback_error}")

        # Re-raise the original exception
        raise e from None"""


def test_raising_the_caught_error_again_is_said_so() -> None:
    """Dispatch, "What happens when an API request fails?": "Then ``db_session_middleware`` raises ``e from None``
    when it catches ``Exception``" read as the failure's end; the middleware passes the error on."""
    chunk = Chunk(
        "src/dispatch/main.py", "python", 112, 126, MIDDLEWARE, "db_session_middleware", "function", "service"
    )
    step = Step(1, Hit(chunk, 1.0), "function", [KeyLine(126, "        raise e from None")], "")
    said = outcome_said_of([("raises", step, KeyLine(126, "        raise e from None"))])
    assert said is not None and "raises the error again" in said[1] and "e from None" not in said[1], said
    other = outcome_said_of([("raises", step, KeyLine(126, "        raise err from None"))])  # no handler binds `err`
    assert other is not None and "exception when it catches Exception: raise err from None" in other[1], other


def test_a_long_line_is_quoted_cut_at_a_bracket_not_mid_name() -> None:
    """mall, "How is an order created from the shopping cart?": "``generateOrder`` is the closest match found:
    ``List<CartPromotionItem> cartPromotionItemList = cartItemService.listPromotion(currentMemb…``": half a name."""
    line = "List<CartPromotionItem> cartPromotionItemList = cartItemService.listPromotion(currentMember.getId(), " \
        "orderParam.getCartIds());"  # fmt: skip
    assert _quote(line) == "List<CartPromotionItem> cartPromotionItemList = cartItemService.listPromotion(…)"
    long_test = "if payments.where(state: %w[checkout pending completed]).sum(:amount) != total and paid_in_full_now?"
    assert _quote(long_test).endswith("!= total and…")
    assert len(_quote(line)) <= QUOTE_CHARS and _quote("x = f(a)") == "x = f(a)"
    route = "router.post('/login', Auth.middleware.applyCSRF, Auth.middleware.applyBlacklist, controllers.login);"
    assert _quote(route) == "router.post('/login', Auth.middleware.applyCSRF, Auth.middleware.applyBlacklist, …)"
    text = '_("Kanban is a method for managing knowledge work with an emphasis on just-in-time delivery while")'
    assert _quote(text).endswith('just-in-time…")'), _quote(text)  # the string and the call closed after the cut
    rule = '"theverge.com": "h2.inline:nth-child(2),h2.duet--article--dangerously-set-cms-markup,figure.e7xhpt0"'
    assert _quote(rule).endswith('cms-markup,…"'), _quote(rule)  # in a string, nothing is put between


def test_code_that_names_a_signed_in_state_is_no_log() -> None:
    """Solidus, "Where would I add logging to track user behavior?": "``UserLoggedIn`` … is the closest match found:
    ``class UserLoggedIn < Condition``": a promotion rule for signed-in customers, read as the log."""
    terms = question_terms("Where would I add logging to track user behavior?")
    assert term_score(terms, "class UserLoggedIn < Condition") == 1.0  # `user` only
    assert term_score(terms, "if user_logged_in? || isLoggedIn") == 1.0
    assert term_score(terms, 'Rails.logger.info("user #{user.id} logged in")') >= 2.0  # a log line stays one
    assert term_score(terms, "log_state_change(name)") >= 1.0


FILTER = """        if (username != null && SecurityContextHolder.getContext().getAuthentication() == null) {
            UserDetails userDetails = this.userDetailsService.loadUserByUsername(username);"""
SERVICE = """    @Override
    public UserDetails loadUserByUsername(String username) {
        UmsAdmin admin = getAdminByUsername(username);"""


def test_a_call_of_load_user_by_username_checks_no_sign_in() -> None:
    auth = "How does user authentication flow through the system?"
    spring = [c for c in load_all() if c.name == "Spring"]
    sign_in = "loads the user and checks the credentials when someone signs in"

    def said(text: str, symbol: str) -> list[str]:
        chunk = Chunk("mall-security/src/main/java/Filter.java", "java", 1, 3, text, symbol, "method", "service")
        return [match.phrase for match in matches_in(chunk, spring, intents(auth))]

    assert sign_in not in said(FILTER, "JwtAuthenticationTokenFilter.doFilterInternal")
    loaded = said(FILTER, "JwtAuthenticationTokenFilter.doFilterInternal")
    assert any(phrase.startswith("loads the user by name (a UserDetailsService)") for phrase in loaded), loaded
    assert sign_in in said(SERVICE, "UmsAdminServiceImpl.loadUserByUsername")
    own = said(
        "    public JwtUserDto loadUserByUsername(String username) {", "UserDetailsServiceImpl.loadUserByUsername"
    )
    assert own == [sign_in], own  # a definition returning the app's own type is no call of it
