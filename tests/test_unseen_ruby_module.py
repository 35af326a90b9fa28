"""Misleading on huginn (a Rails app in no data set): "``JobsHelper`` (``app/helpers/jobs_helper.rb:1-46``) is the
file's top-level code" for ``module JobsHelper`` and its helper methods, and "``Agents`` … is the file's top-level
code" for ``module Agents`` around ``class DryRunsController``: a chunk that opens a named module defines a module."""

from __future__ import annotations

from codeqa.answer.explanation.roles_said import role_phrase
from codeqa.records import Chunk

HELPER = """module JobsHelper
  def status(job)
    case
    when job.failed_at
      content_tag :span, 'failed', class: 'label label-danger'
    else
      content_tag :span, 'queued', class: 'label label-warning'
    end
  end
end"""
SCRIPT = """require_relative './pre_runner_boot'

AgentRunner.new(except: DelayedJobWorker).run"""
RUST = """pub mod auth {
    pub fn check(token: &str) -> bool {
        !token.is_empty()
    }
}"""


def test_a_named_ruby_module_is_a_module():
    chunk = Chunk("app/helpers/jobs_helper.rb", "ruby", 1, 10, HELPER, "JobsHelper", "module", "")
    assert role_phrase(chunk, {}, "") == "defines a module"


def test_a_rust_module_is_a_module():
    chunk = Chunk("src/lib.rs", "rust", 1, 5, RUST, "auth", "module", "")
    assert role_phrase(chunk, {}, "") == "defines a module"


def test_a_script_is_still_the_files_top_level_code():
    chunk = Chunk("bin/agent_runner.rb", "ruby", 1, 3, SCRIPT, "", "module", "")
    assert role_phrase(chunk, {}, "") == "is the file's top-level code"
