"""Garbled on diaspora, a Rails app (1,805 files) in no data set, asked how authentication flows: "`User` … uses
Devise for sign-in (:two_factor_authenticatable, and (:registerable, …)" for a model with two multi-line ``devise``
calls: the two phrases ("… (:two_factor_authenticatable, …)", "… (:registerable, …)") were said once around the
words they differ in, which cut inside their brackets; a run that differs is now whole in its brackets."""

from __future__ import annotations

from codeqa.answer.explanation.constructs.mechanism import matches_in
from codeqa.answer.explanation.said.phrasing import merged
from codeqa.chunk import chunk_file
from codeqa.frameworks.conventions import load_all
from codeqa.frameworks.intent import intents
from codeqa.records import SourceFile

# app/models/user.rb, the opening of the model (lines 9-33, shortened)
USER = """class User < ApplicationRecord
  include AuthenticationToken

  scope :active, -> { joins(:person).where(people: {closed_account: false}) }

  devise :two_factor_authenticatable,
         :two_factor_backupable,
         otp_backup_code_length:     16,
         otp_number_of_backup_codes: 10

  devise :registerable,
         :recoverable, :rememberable, :trackable, :validatable,
         :lockable, :lastseenable, :lock_strategy => :none, :unlock_strategy => :none

  before_validation :strip_and_downcase_username
end
"""


def _phrases() -> list[str]:
    rails = [c for c in load_all() if c.name in ("Rails", "any framework")]
    chunks = chunk_file(SourceFile("app/models/user.rb", "ruby", USER, len(USER)))
    question = intents("How does user authentication flow through the system?")
    return [m.phrase for chunk in chunks for m in matches_in(chunk, rails, question) if "Devise" in m.phrase]


def test_two_devise_calls_are_said_with_their_brackets_whole():
    phrases = _phrases()
    assert phrases == [
        "uses Devise for sign-in (:two_factor_authenticatable, …)",
        "uses Devise for sign-in (:registerable, …)",
    ]
    said = merged(phrases)
    assert said == "uses Devise for sign-in (:two_factor_authenticatable, … and :registerable, …)"
    assert said.count("(") == said.count(")")


def test_runs_that_differ_inside_brackets_still_share_their_words():
    assert merged(["turns `A` into a response (rescue_from)", "turns `B` into a response (rescue_from)"]) == (
        "turns `A` and `B` into a response (rescue_from)"
    )
    said = merged(["runs `check` (only: [:create])", "runs `check` (only: [:update])"])
    assert said.count("(") == said.count(")") and said.count("[") == said.count("]")


# app/workers/gather_o_embed_data.rb, lines 8-24 (shortened): a whole file the chunker named after its module
WORKER = """module Workers
  class GatherOEmbedData < Base
    sidekiq_options queue: :medium

    def perform(post_id, url, retry_count=1)
      post = Post.find(post_id)
      post.save
    rescue ActiveRecord::RecordNotFound
      GatherOEmbedData.perform_in(1.minute, post_id, url, retry_count+1) unless retry_count > 3
    end
  end
end"""


def test_a_class_its_namespace_modules_only_wrap_is_named_and_said_a_class():
    # diaspora: "`Workers` (app/workers/gather_o_embed_data.rb:8-24) defines a module", "`Api`
    # (app/controllers/api/v1/reshares_controller.rb:3-52) defines a module" for a file holding one class
    from codeqa.answer.explanation.code.outline import display_name
    from codeqa.answer.explanation.said.roles_said import role_phrase

    worker = next(c for c in chunk_file(SourceFile("app/workers/gather_o_embed_data.rb", "ruby", WORKER, len(WORKER))))
    assert (worker.symbol, str(worker.kind)) == ("Workers", "module")  # what the chunker names it
    assert display_name(worker) == "Workers.GatherOEmbedData"
    assert role_phrase(worker, {}, "") == "defines a class"
    inner = "\n".join(f"  {line}" if line else line for line in WORKER.split("\n")[1:-1])
    nested = f"module Workers\n  module Archive\n{inner}\n  end\nend"
    chunk = next(c for c in chunk_file(SourceFile("app/workers/archive.rb", "ruby", nested, len(nested))))
    assert display_name(chunk) == "Workers.Archive.GatherOEmbedData"


def test_a_module_holding_more_than_one_class_or_its_own_code_stays_a_module():
    from codeqa.answer.explanation.code.outline import display_name
    from codeqa.answer.explanation.said.roles_said import role_phrase

    two = WORKER[: -len("end")] + "  class Other\n  end\nend"
    own = WORKER.replace("module Workers\n", "module Workers\n  QUEUE = :medium\n", 1)
    for text in (two, own):
        chunk = next(c for c in chunk_file(SourceFile("app/workers/w.rb", "ruby", text, len(text))))
        assert display_name(chunk) == "Workers"
        assert role_phrase(chunk, {}, "") == "defines a module"
