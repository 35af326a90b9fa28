"""wiki.js (an Express app in no data set), asked "How does user authentication flow through the system?", showed
``auth.js`` (lines 63-124: two routes) with "Its documentation says: “Social Strategies Callback”" while the
answer's opening cited the ``/login`` route below it, whose own comment is ``LEGACY - Login form handling``. A comment
over the first of several documented top-level statements is that statement's, not the chunk's."""

from __future__ import annotations

from codeqa.answer.explanation.code.outline import summary
from codeqa.answer.explanation.said.lead import _quote
from codeqa.answer.explanation.said.outcomes import _stored
from codeqa.answer.explanation.said.quoted_line import _fragment
from codeqa.records import Chunk

TWO_ROUTES = """/**
 * Social Strategies Callback
 */
router.all('/login/:strategy/callback', async (req, res, next) => {
  if (req.method !== 'GET' && req.method !== 'POST') { return next() }
  // the strategy's answer
  res.redirect('/')
})

/**
 * LEGACY - Login form handling
 */
router.post('/login', bruteforce.prevent, async (req, res, next) => {
  res.redirect('/')
})"""


def _module(text: str) -> Chunk:
    return Chunk("server/controllers/auth.js", "javascript", 63, 63 + text.count("\n"), text, "", "module", "route")


def test_a_comment_over_the_first_of_two_documented_statements_is_not_the_chunks() -> None:
    assert summary(_module(TWO_ROUTES)) == ""


def test_a_comment_over_one_statement_with_inner_comments_is_still_its_documentation() -> None:
    one_route = TWO_ROUTES.split("\n\n/**\n * LEGACY")[0]
    assert summary(_module(one_route)) == "Social Strategies Callback"


NOTE_BELOW = """  /**
   * Notification for approval
   *
   * We only check on AfterUpdate as to not trigger this for
   * auto approved content
   */
  @AfterUpdate()
  public async notifyApprovedOrDeclined(autoApproved = false): Promise<void> {
    return;
  }"""


def test_a_comment_says_its_first_paragraph_as_a_docstring_does() -> None:
    """overseerr: “Notification for approval We only check on AfterUpdate as to not trigger this for auto approved
    content” joined two paragraphs into one sentence."""
    chunk = Chunk("server/entity/MediaRequest.ts", "typescript", 495, 505, NOTE_BELOW,
                  "MediaRequest.notifyApprovedOrDeclined", "method", "model")  # fmt: skip
    assert summary(chunk) == "Notification for approval"


def test_a_client_stores_mutation_stores_nothing() -> None:
    """wiki.js, asked "How is a new page created and stored?": "Then `editor.vue` stores
    ``this.$store.commit(`loadingStart`, 'editor-close')``" — a Vuex mutation that shows a spinner."""
    vue = Chunk("client/components/editor.vue", "vue", 500, 520, "x", "", "module", "ui")
    assert not _stored(vue, "this.$store.commit(`loadingStart`, 'editor-close')")
    assert not _stored(vue, "store.commit('setUser', user)")
    python = Chunk("app/views.py", "python", 1, 9, "x", "", "module", "api")
    assert _stored(python, "db.session.commit()")
    assert _stored(vue, "store.commit('setUser', user); await api.save(user)")


def test_the_opening_quotes_a_whole_line_not_an_operand_of_a_longer_expression() -> None:
    """wiki.js: "`editor.vue` renders what the user sees: ``this.savedState.description !==
    this.$store.get('page/description'),``" pasted an item of a list, its comma too, into the sentence."""
    assert _quote("        this.savedState.description !== this.$store.get('page/description'),") == (
        "this.savedState.description !== this.$store.get('page/description')"
    )
    assert _fragment("    return this.isDirty ||") and _fragment("      .then(() => save(page))")
    assert not _fragment("    this.$store.set('page/id', this.pageId)") and not _fragment("def login(request):")
