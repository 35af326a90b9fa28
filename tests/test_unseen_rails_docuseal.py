"""Sentences read on DocuSeal (a Rails + Vue app, 1,040 files, in no data set):

- asked how authentication flows: "Then `ApplicationController` answers with `redirect_to request.path`" — the body
  of ``rescue_from Pagy::RangeError do``, the answer to a page number out of range, said as how signing in ends (a
  ``rescue_from`` block was not an error branch);
- asked what happens when an API request fails: "Then `Api.ApiBaseController` answers with `render json: { error:
  e.message }, status: :unprocessable_content`", one of four ``rescue_from`` blocks, said as the answer to every
  failure: it is now said with the class it rescues;
- asked how background jobs run: "`SendFormStartedWebhookRequestJob` … runs in the background (Active Job)" for a
  class that does ``include Sidekiq::Job`` (no Active Job);
- asked how a submission is created: "`Submissions` (`lib/submissions/assign_defined_submitters.rb:3-48`) calls
  `assign_submitters_is_viewer`": the file's code is ``module Submissions`` / ``module AssignDefinedSubmitters``, and
  ``Submissions`` is also the module of ``lib/submissions.rb``.
"""

from __future__ import annotations

from codeqa.answer.context import AnswerContext
from codeqa.answer.explanation.code.branches import on_error_branch
from codeqa.answer.explanation.code.handled import handled_type
from codeqa.answer.explanation.code.outline import display_name
from codeqa.answer.explanation.constructs.mechanism import matches_in
from codeqa.answer.explanation.said.extractive import extractive_answer
from codeqa.chunk import chunk_file
from codeqa.frameworks.conventions import load_all
from codeqa.frameworks.intent import intents
from codeqa.records import Chunk, Hit, SourceFile

# app/controllers/application_controller.rb, lines 1-46 (shortened)
APPLICATION = """# frozen_string_literal: true

class ApplicationController < ActionController::Base
  check_authorization unless: :devise_controller?

  before_action :maybe_redirect_to_setup, unless: :signed_in?
  before_action :authenticate_user!, unless: :devise_controller?

  rescue_from Pagy::RangeError do
    redirect_to request.path
  end

  rescue_from RateLimit::LimitApproached do |e|
    Rollbar.error(e) if defined?(Rollbar)

    redirect_to request.referer, alert: 'Too many requests', status: :too_many_requests
  end

  def impersonate_user(user)
    raise ArgumentError unless user

    request.session[:impersonated_user_id] = user.uuid
  end
end
"""
# app/controllers/api/api_base_controller.rb, lines 1-40 (shortened)
API_BASE = """# frozen_string_literal: true

module Api
  class ApiBaseController < ActionController::API
    before_action :authenticate_user!
    check_authorization

    rescue_from Params::BaseValidator::InvalidParameterError do |e|
      render json: { error: e.message }, status: :unprocessable_content
    end

    rescue_from RateLimit::LimitApproached do |e|
      Rollbar.error(e) if defined?(Rollbar)

      render json: { error: 'Too many requests' }, status: :too_many_requests
    end

    rescue_from StandardError do |e|
      render json: { error: 'Internal error' }, status: :internal_server_error
    end

    def show
      @template = Template.find(params[:id])
    rescue ActiveRecord::RecordNotFound => e
      render json: { error: e.message }, status: :not_found
    end
  end
end
"""
# app/jobs/send_form_started_webhook_request_job.rb, lines 1-12 (shortened)
JOB = """# frozen_string_literal: true

class SendFormStartedWebhookRequestJob
  include Sidekiq::Job

  sidekiq_options queue: :webhooks

  def perform(params = {})
    submitter = Submitter.find_by(id: params['submitter_id'])
  end
end
"""
# lib/submissions/assign_defined_submitters.rb, lines 1-20 (shortened)
ASSIGN = """# frozen_string_literal: true

module Submissions
  module AssignDefinedSubmitters
    module_function

    def call(submission)
      submission.submitters_order = 'preserved'

      Submissions::CreateFromSubmitters.assign_submitters_is_viewer(submission)

      submission
    end
  end
end
"""


def _chunks(path: str, text: str) -> list[Chunk]:
    return chunk_file(SourceFile(path, "ruby", text, len(text)))


def _answer(question: str, chunks: list[Chunk]) -> str:
    hits = [Hit(chunk, 1.0 - n / 10, chunk.id) for n, chunk in enumerate(chunks)]
    return extractive_answer(question, hits, context=AnswerContext.from_chunks(chunks, hits))


def test_a_rescue_from_block_is_an_error_branch_not_how_signing_in_ends() -> None:
    chunks = _chunks("app/controllers/application_controller.rb", APPLICATION)
    held = next(chunk for chunk in chunks if chunk.start_line <= 10 <= chunk.end_line)
    assert "redirect_to request.path" in held.text.split("\n")[10 - held.start_line]
    assert on_error_branch(held, 10)
    assert not on_error_branch(held, 22)  # the session write of `impersonate_user` is no error's
    text = _answer("How does user authentication flow through the system?", chunks)
    assert "answers with `redirect_to request.path`" not in text, text
    assert "answers with `redirect_to request.referer" not in text, text


def test_an_answer_given_in_a_rescue_from_block_says_the_class_it_rescues() -> None:
    chunks = _chunks("app/controllers/api/api_base_controller.rb", API_BASE)
    held = next(chunk for chunk in chunks if chunk.start_line <= 9 <= chunk.end_line)
    assert handled_type(held, 9) == "Params::BaseValidator::InvalidParameterError"
    assert handled_type(held, 15) == "RateLimit::LimitApproached"
    assert handled_type(held, 19) == ""  # a catch-all is said without a class
    show = next(chunk for chunk in chunks if chunk.start_line <= 25 <= chunk.end_line)
    assert handled_type(show, 25) == "ActiveRecord::RecordNotFound"  # ``rescue … => e`` in a method
    assert handled_type(show, 23) == ""  # the method's own line is no rescue's
    text = _answer("What happens when an API request fails?", chunks)
    said = next(line for line in text.split("\n") if "Then " in line)
    assert "status: :unprocessable_content` for a `Params::BaseValidator::InvalidParameterError`" in said, said


def test_a_sidekiq_job_is_not_said_to_be_an_active_job() -> None:
    rails = [c for c in load_all() if c.name == "Rails"]
    question = intents("How do background jobs run?")
    phrases = [m.phrase for c in _chunks("app/jobs/send_form_started_webhook_request_job.rb", JOB)
               for m in matches_in(c, rails, question)]  # fmt: skip
    assert "runs in the background (Sidekiq)" in phrases, phrases
    assert "runs in the background (Active Job)" not in phrases, phrases
    active = "class ExportJob < ApplicationJob\n  def perform(id)\n    Export.find(id)\n  end\nend\n"
    said = [m.phrase for c in _chunks("app/jobs/export_job.rb", active) for m in matches_in(c, rails, question)]
    assert "runs in the background (Active Job)" in said, said


def test_a_module_its_namespace_module_only_wraps_is_named_in_full() -> None:
    chunk = _chunks("lib/submissions/assign_defined_submitters.rb", ASSIGN)[-1]
    assert chunk.symbol == "Submissions"  # what the chunker names it: also lib/submissions.rb's module
    assert display_name(chunk) == "Submissions.AssignDefinedSubmitters"
    # a namespace holding two modules, or code of its own, is the namespace
    two = ASSIGN.replace("\nend\n", "\n  module Other\n    def self.x; end\n  end\nend\n")
    own = ASSIGN.replace("module Submissions\n", "module Submissions\n  LIMIT = 10\n", 1)
    for text in (two, own):
        assert display_name(_chunks("lib/submissions/x.rb", text)[-1]) == "Submissions"
