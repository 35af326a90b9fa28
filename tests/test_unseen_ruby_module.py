"""Misleading on huginn (a Rails app in no data set): "``JobsHelper`` (``app/helpers/jobs_helper.rb:1-46``) is the
file's top-level code" for ``module JobsHelper`` and its helper methods, and "``Agents`` … is the file's top-level
code" for ``module Agents`` around ``class DryRunsController``: a chunk that opens a named module defines a module.
And a construct's list that its line leaves open is said cut ("(:database_authenticatable, :registerable, …)",
not as if the two were all the modules)."""

from __future__ import annotations

from codeqa.answer.explanation.constructs.mechanism import matches_in
from codeqa.answer.explanation.said.roles_said import role_phrase
from codeqa.frameworks.conventions import load_all
from codeqa.frameworks.intent import intents
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


USER = """class User < ActiveRecord::Base
  devise :database_authenticatable, :registerable,
         :recoverable, :rememberable, :trackable,
         :validatable, :lockable, :omniauthable
end"""
ADMIN = """class Admin < ApplicationRecord
  devise :database_authenticatable, :trackable
end"""


def _devise_said(text: str) -> list[str]:
    rails = [c for c in load_all() if c.name in ("Rails", "any framework")]
    chunk = Chunk("app/models/user.rb", "ruby", 1, 1 + text.count("\n"), text, "User", "class", "model")
    said = matches_in(chunk, rails, intents("How does user authentication flow through the system?"))
    return [m.phrase for m in said if "Devise" in m.phrase]


def test_a_list_the_line_leaves_open_is_said_cut():
    """Misleading on huginn: "User uses Devise for sign-in (:database_authenticatable, :registerable,)" named two of
    the eight modules the call lists over three lines, as if they were all."""
    assert _devise_said(USER) == ["uses Devise for sign-in (:database_authenticatable, :registerable, …)"]
    assert _devise_said(ADMIN) == ["uses Devise for sign-in (:database_authenticatable, :trackable)"]
