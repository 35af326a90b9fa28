"""Prose on an unseen app (probe 17's read of huginn, an app in no data set): "In short: the code at
`lib/huginn_scheduler.rb:154-187` queues `AgentRunScheduleJob` … to run in the background: at
`lib/huginn_scheduler.rb:166-185`: `if AgentRunScheduleJob.perform_later(time)` and 2 more like it" quoted an ``if``
head as if it were a statement. A quoted ``if`` head is said as its test: "when `…perform_later(time)` succeeds".
"""

from __future__ import annotations

from codeqa.answer.explanation.constructs.mechanism import matches_in
from codeqa.answer.explanation.explain import Step
from codeqa.answer.explanation.said.closing_place import _lines, _tested
from codeqa.frameworks.conventions import load_all
from codeqa.records import Chunk, Hit

SCHEDULER = """  def run
    @scheduler.join
  end

  def self.setup_worker
    [new(id: self.to_s)]
  end

  private

  def run_schedule(time)
    with_mutex do
      if AgentRunScheduleJob.perform_later(time)
        puts "Queued schedule for #{time}"
      else
        puts "Skipped schedule for #{time} (already queued)"
      end
    end
  end

  def propagate!
    with_mutex do
      return unless AgentPropagateJob.can_enqueue?
      puts "Queuing event propagation"
      AgentPropagateJob.perform_later
    end
  end

  def cleanup_expired_events!
    with_mutex do
      puts "Running event cleanup"
      AgentCleanupExpiredJob.perform_later
    end
  end"""


def _closing(chunk: Chunk) -> str:
    matches = [m for m in matches_in(chunk, load_all(), ("jobs",)) if "perform_later" in m.text or "add" in m.text]
    step = Step(1, Hit(chunk, 1.0, chunk.id), "function", [], "")
    said = _lines(step, matches)
    assert said is not None
    return said[1]


def test_a_quoted_if_head_is_said_as_its_test() -> None:
    chunk = Chunk("lib/huginn_scheduler.rb", "ruby", 154, 187, SCHEDULER, "HuginnScheduler.run", "method", "lib")
    said = _closing(chunk)
    assert said.startswith("at lib/huginn_scheduler.rb:166-")
    assert ": when AgentRunScheduleJob.perform_later(time) succeeds (and " in said
    assert "if AgentRunScheduleJob" not in said


def test_brackets_around_a_test_are_not_quoted() -> None:
    assert _tested("src/queue.js:2", "if", "(queue.add(job(items)))", "")[1] == (
        "at src/queue.js:2: when queue.add(job(items)) succeeds"
    )
    assert _tested("a.js:3", "if", "(a) && (b)", "")[1] == "at a.js:3: when (a) && (b)"  # two tests, not one bracket
    assert _tested("a.rb:4", "unless", "user.admin?", "")[1] == "at a.rb:4: unless user.admin?"
