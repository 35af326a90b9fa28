"""A snippet showed the line that opens a list and none of its entries, or cut the check of a limit (issue #35,
class 6: the key line cut from a snippet).

Found on the real-size apps (``bench/data/realsize_dev.jsonl``, ``/work/dbg/incited.py``: the fact's line inside a
span the answer cites, not shown):

- netbox, "How does user authentication flow through the system?": the folded ``settings.py`` (550-606) showed
  ``AUTHENTICATION_BACKENDS = [`` (line 581) and nothing of the list; the backend it names,
  ``'netbox.authentication.ObjectPermissionBackend',`` (line 583), was cut for
  ``if type(REMOTE_AUTH_BACKEND) not in (list, tuple):``. On the dev answers 56 of 67 openers shown
  (``MIDDLEWARE = [``, ``return [``, ``'channels' => [``) showed none of their entries.
- taiga, "Why would someone be refused when creating another private project? Where is the limit on how many
  projects and members an owner may have checked?": ``check_if_project_can_be_created_or_updated`` showed the error
  messages and the returns, but cut ``if max_projects is not None and current_projects >= max_projects:`` (line
  114), the check of the limit the question asks for: "projects" is on every line of the span, so the words alone
  did not tell it apart.
"""

from __future__ import annotations

from codeqa.answer.explanation.code.bounds import checks_a_bound
from codeqa.answer.explanation.code.keylines import question_terms
from codeqa.answer.explanation.code.openers import direct_entries, inner_lines, opens_value, with_entries
from codeqa.answer.explanation.sources.choose import source_lines
from codeqa.records import Chunk
from codeqa.retrieve.question import Question


def _shown(question: str, code: str, start: int, limit: int, *, path: str = "app/x.py") -> list[str]:
    chunk = Chunk(path, "python", start, start + code.count("\n"), code, "", "module", "config")
    terms = question_terms(Question.parse(question))
    return [line.text.strip() for line in source_lines(terms, chunk, [], limit)]


# netbox/netbox/settings.py:575-595
NETBOX_SETTINGS = """# This allows us to override Django's stock form widget templates
FORM_RENDERER = 'django.forms.renderers.TemplatesSetting'

# Set up authentication backends
if type(REMOTE_AUTH_BACKEND) not in (list, tuple):
    REMOTE_AUTH_BACKEND = [REMOTE_AUTH_BACKEND]
AUTHENTICATION_BACKENDS = [
    *REMOTE_AUTH_BACKEND,
    'netbox.authentication.ObjectPermissionBackend',
]

# Use our custom User model
AUTH_USER_MODEL = 'users.User'

# Authentication URLs
LOGIN_URL = f'/{BASE_PATH}login/'
LOGIN_REDIRECT_URL = f'/{BASE_PATH}'

# Use timezone-aware datetime objects
USE_TZ = True
"""


def test_an_opened_list_is_shown_with_an_entry() -> None:
    shown = _shown("How does user authentication flow through the system?", NETBOX_SETTINGS, 575, 3)
    assert "AUTHENTICATION_BACKENDS = [" in shown
    assert "'netbox.authentication.ObjectPermissionBackend'," in shown
    assert len(shown) == 3  # in place of a line, not beside it: the snippet keeps its length


def test_openers_and_their_direct_entries() -> None:
    for line in ("MIDDLEWARE = [", "    return [", "    'channels' => [", "  text: {", "module.exports = {"):
        assert opens_value(line), line
    for line in ("if (user) {", "function check() {", "const roles = ['admin', 'user']", "class Foo {", "do |x|"):
        assert not opens_value(line), line
    lines = NETBOX_SETTINGS.split("\n")
    assert [lines[i].strip() for i in direct_entries(lines, 6)] == [
        "*REMOTE_AUTH_BACKEND,",
        "'netbox.authentication.ObjectPermissionBackend',",
    ]


# taiga/projects/services/projects.py:78-120
TAIGA_PROJECT_LIMIT = '''def check_if_project_can_be_created_or_updated(project):
    """Return if the project can be create or update (the privacy).

    :param project: A project object.

    :return: (bool, error_mesage, int) return a tuple (can be duplicated, error message, total new project members).
    """
    if project.owner is None:
        return (False, ERROR_PROJECT_WITHOUT_OWNER, 0)

    current_projects = project.owner.owned_projects.filter(is_private=project.is_private).count()
    Membership = apps.get_model("projects", "Membership")
    current_memberships = (Membership.objects.filter(project__is_private=project.is_private,
                                                     project__owner_id=project.owner_id,
                                                     user_id__isnull=False)
                                             .values("user_id")
                                             .distinct()
                                             .count()) # Just confirmed members
    current_memberships += (Membership.objects.filter(project__is_private=project.is_private,
                                                      project__owner_id=project.owner_id,
                                                      user_id__isnull=True)
                                              .values("email")
                                              .distinct()
                                              .count()) # Pending members

    if project.is_private:
        max_projects = project.owner.max_private_projects
        max_memberships = project.owner.max_memberships_private_projects
        error_project_exceeded = _("You can't have more private projects")
        error_memberships_exceeded = _("This project reaches your current limit of memberships for private projects")
    else:
        max_projects = project.owner.max_public_projects
        max_memberships = project.owner.max_memberships_public_projects
        error_project_exceeded = _("You can't have more public projects")
        error_memberships_exceeded = _("This project reaches your current limit of memberships for public projects")

    if max_projects is not None and current_projects >= max_projects:
        return (False, error_project_exceeded, current_memberships)

    if max_memberships is not None and current_memberships > max_memberships:
        return (False, error_memberships_exceeded, current_memberships)

    return (True, None, current_memberships)'''

TAIGA_QUESTION = (
    "Why would someone be refused when creating another private project? Where is the limit on how many projects "
    "and members an owner may have checked?"
)


def test_the_check_of_a_limit_is_shown_for_a_question_about_a_limit() -> None:
    shown = _shown(TAIGA_QUESTION, TAIGA_PROJECT_LIMIT, 78, 11)  # the answer gave the span 11 lines
    assert "if max_projects is not None and current_projects >= max_projects:" in shown


def test_a_bound_is_checked_by_a_comparison_in_a_decision_or_a_filter() -> None:
    for line in (
        "if max_projects is not None and current_projects >= max_projects:",
        "} else if (now - lasttime < meta.config.postDelay * 1000) {",
        "->where('scheduled_at', '<=', $currentDate)",
        'incomplete.where("syncs.created_at < ?", STALE_AFTER.ago).find_each(&:mark_stale!)',
        "if ($feedDate?->isBefore($podcast->last_synced_at)) {",
    ):
        assert checks_a_bound(line), line
    for line in (
        "for (let i = 0; i < items.length; i++) {",  # a loop's counter
        "const list: Array<string> = [];",  # a generic
        "$query->where('user_id', $user->id)",  # an equality
        "return a => b",
        "max_projects = project.owner.max_private_projects",  # sets, does not check
    ):
        assert not checks_a_bound(line), line


# internal/reader/urlcleaner/urlcleaner.go:18-113 (miniflux): two tables in one span
MINIFLUX_TRACKING = """var trackingParams = map[string]bool{
	// Facebook Click Identifiers
	"fbclid":          true,
	"_openstat":       true,
	"fb_action_ids":   true,
	"fb_action_types": true,
	"fb_ref":          true,
	"fb_source":       true,
	"fb_comment_id":   true,

	// Humble Bundles
	"hmb_campaign": true,
	"hmb_medium":   true,
	"hmb_source":   true,

	// Likely Google as well
	"itm_campaign": true,
	"itm_medium":   true,
	"itm_source":   true,

	// Google Click Identifiers
	"gclid":  true,
	"dclid":  true,
	"gbraid": true,
	"wbraid": true,
	"gclsrc": true,

	// Google Analytics
	"campaign_id":      true,
	"campaign_medium":  true,
	"campaign_name":    true,
	"campaign_source":  true,
	"campaign_term":    true,
	"campaign_content": true,

	// Google
	"srsltid": true,

	// Yandex Click Identifiers
	"yclid":  true,
	"ysclid": true,

	// Twitter Click Identifier
	"twclid": true,

	// Microsoft Click Identifier
	"msclkid": true,

	// Mailchimp Click Identifiers
	"mc_cid": true,
	"mc_eid": true,
	"mc_tc":  true,

	// Wicked Reports click tracking
	"wickedid": true,

	// Hubspot Click Identifiers
	"hsa_cam":       true,
	"_hsenc":        true,
	"__hssc":        true,
	"__hstc":        true,
	"__hsfp":        true,
	"_hsmi":         true,
	"hsctatracking": true,

	// Olytics
	"rb_clickid":  true,
	"oly_anon_id": true,
	"oly_enc_id":  true,

	// Vero Click Identifier
	"vero_id":   true,
	"vero_conv": true,

	// Marketo email tracking
	"mkt_tok": true,

	// Adobe email tracking
	"sc_cid": true,

	// Beehiiv
	"_bhlid": true,

	// Branch.io
	"_branch_match_id": true,
	"_branch_referrer": true,

	// Readwise
	"__readwiseLocation": true,
}

// Outbound tracking parameters are appending the website's url to outbound links.
var trackingParamsOutbound = map[string]bool{
	// Ghost
	"ref": true,
}"""


def test_an_entry_shown_for_one_opener_is_not_dropped_for_another() -> None:
    question = "Where are advertising and analytics parameters stripped from article links?"
    shown = _shown(question, MINIFLUX_TRACKING, 18, 3, path="internal/reader/urlcleaner/urlcleaner.go")
    assert "var trackingParams = map[string]bool{" in shown
    assert any(line.startswith('"fbclid":') for line in shown)


# hc/settings.py:185-198 (healthchecks): the handler's class is inside a nested table
HEALTHCHECKS_LOGGING = """LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "handlers": {
        "db": {
            "level": "DEBUG",
            "class": "hc.logs.Handler",
        },
    },
    "loggers": {
        "django.request": {"level": "ERROR", "handlers": ["db"]},
        "hc": {"level": "DEBUG", "handlers": ["db"]},
    },
}"""


def test_an_opener_with_a_nested_line_shown_is_not_alone() -> None:
    lines = HEALTHCHECKS_LOGGING.split("\n")
    assert [lines[i].strip() for i in direct_entries(lines, 0)][:3] == [
        '"version": 1,',
        '"disable_existing_loggers": False,',
        '"handlers": {',
    ]
    assert 6 in inner_lines(lines, 0)  # ``"class": "hc.logs.Handler",``
    chosen = with_entries([0, 6, 11], lines, [11, 6, 0, 1, 2], fixed=0, limit=3)
    assert sorted(chosen) == [0, 6, 11]  # the nested line already shows what the table holds


def test_the_entry_brought_in_opens_no_value_of_its_own() -> None:
    lines = HEALTHCHECKS_LOGGING.split("\n")
    chosen = with_entries([0], lines, [3, 2, 1], fixed=0, limit=2)  # ``"handlers": {`` ranks first
    assert [lines[i].strip() for i in chosen] == ["LOGGING = {", '"disable_existing_loggers": False,']
