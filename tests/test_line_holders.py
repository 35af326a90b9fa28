"""A source or a "More places" item is named after the definition its shown lines lie in: a chunk of several
definitions is named after its first (``extend_url_map (+1)``), and lines quoted from its second one were shown under
the first one's name, with the first one's documentation."""

from __future__ import annotations

from codeqa.answer.explanation.code.keylines import KeyLine
from codeqa.answer.explanation.code.outline import display_name
from codeqa.answer.explanation.explain import Explanation, Step
from codeqa.answer.explanation.said.extractive import sentence
from codeqa.answer.explanation.said.placing import lines_holder, quoted_name
from codeqa.records import Chunk, Hit
from tests.test_false_claims_round7 import HANDLER_GO

APP = '''def extend_url_map(app):
    """Teach the URL map the list converter."""
    app.url_map.converters['list'] = ListConverter


def add_handlers(app):
    app.before_request(canonicalize_url)
    app.before_request(reject_nuls)
    app.after_request(inject_current_url)
    app.after_request(inject_csp)
    app.register_blueprint(errors_bp)'''

USER = """  def onboarded?
    onboarded_at.present?
  end

  private
    def ensure_valid_profile_image
      return unless profile_image.attached?

      unless profile_image.content_type.in?(%w[image/jpeg image/png])
        errors.add(:profile_image, "must be a JPEG or PNG")
        profile_image.purge
      end
    end

    def profile_image_size
      if profile_image.attached? && profile_image.byte_size > 10.megabytes
        errors.add(:profile_image, :invalid_file_size, max_megabytes: 10)
      end
    end"""


def _chunk(path: str, language: str, start: int, text: str, symbol: str, kind: str) -> Chunk:
    return Chunk(path, language, start, start + text.count("\n"), text, symbol, kind, "core")


def _step(chunk: Chunk, *numbers: int) -> Step:
    lines = chunk.text.split("\n")
    shown = [KeyLine(n, lines[n - chunk.start_line]) for n in numbers]
    return Step(1, Hit(chunk, 0.9, chunk.id), "core", shown, "")


def test_lines_all_in_a_later_definition_are_named_after_it() -> None:
    app = _chunk("indico/web/flask/app.py", "python", 336, APP, "extend_url_map, add_handlers", "function")
    assert display_name(app) == "extend_url_map (+1)"
    assert quoted_name(_step(app, 341, 345)) == "add_handlers"
    assert quoted_name(_step(app, 338)) == "extend_url_map (+1)"  # its own first definition's line
    assert lines_holder(_step(app, 338, 345)) == ""  # lines of both: the chunk's name stays


def test_lines_of_two_other_methods_keep_the_chunks_name_and_one_names_it() -> None:
    names = "User.onboarded?, User.ensure_valid_profile_image, User.profile_image_size"
    user = _chunk("app/models/user.rb", "ruby", 158, USER, names, "method")
    assert display_name(user) == "User.onboarded? (+2)"
    assert quoted_name(_step(user, 167)) == "User.ensure_valid_profile_image"
    assert quoted_name(_step(user, 167, 174)) == "User.onboarded? (+2)"  # in two definitions: neither alone
    assert quoted_name(_step(user, 159)) == "User.onboarded? (+2)"


def test_a_source_shown_on_its_second_definition_is_said_of_it_without_the_firsts_documentation() -> None:
    app = _chunk("indico/web/flask/app.py", "python", 336, APP, "extend_url_map, add_handlers", "function")
    shown = _step(app, 341, 344, 345)
    shown.about = "Teach the URL map the list converter."  # the first definition's docstring
    explanation = Explanation("Where are after_request handlers registered?", [shown], [], [], [shown.hit], opened=1)
    said = sentence(shown, explanation, None, None)
    assert said.startswith("`add_handlers` (`indico/web/flask/app.py:336-346`) is a function"), said
    assert "Teach the URL map" not in said
    first = _step(app, 336, 338)
    first.about = shown.about
    said = sentence(first, Explanation("Where is the URL map extended?", [first], [], [], [first.hit], opened=1), None,
                    None)  # fmt: skip
    assert said.startswith("`extend_url_map (+1)` (`indico/web/flask/app.py:336-346`)"), said
    assert "Teach the URL map" in said


def test_lines_of_one_of_two_namesake_methods_are_named_by_its_receiver() -> None:
    names = "Handler, Middleware, Handler.toEcho, Middleware.toEcho"
    server = _chunk("internal/web/server/handler.go", "go", 1, HANDLER_GO, names, "function")
    assert quoted_name(_step(server, 11, 12, 17, 18)) == display_name(server)  # not all `Handler.toEcho`
    assert quoted_name(_step(server, 17, 18)) == "Middleware.toEcho"  # `func (m Middleware) toEcho()`
