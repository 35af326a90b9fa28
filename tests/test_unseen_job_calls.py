"""False sentences read on two apps in no data set (huginn: Rails; firefly-iii: Laravel), asked how agents are
scheduled and how recurring transactions are created:

- "``HuginnScheduler.run_schedule`` runs in the background (Active Job)" for a scheduler method whose
  ``AgentRunScheduleJob.perform_later(time)`` only puts a job on the queue (it runs in the scheduler's process):
  a call that queues a job is said as queueing it, a job class still runs in the background;
- "``HuginnScheduler.run`` calls ``AgentPropagateJob.can_enqueue?``" and "2. ``CreateRecurringTransactions.setDate``
  calls ``validRecurrence``": a chunk of several definitions is named after its first, and a call found by name is
  made by the definition its lines show holding it (``propagate!``, ``filterRecurrences``).
"""

from __future__ import annotations

from codeqa.answer.explanation.calls.callplace import caller_name
from codeqa.answer.explanation.calls.flow import Use
from codeqa.answer.explanation.constructs.mechanism import matches_in
from codeqa.answer.explanation.story.walk import Hop, Walk
from codeqa.answer.explanation.story.walktext import walk_steps
from codeqa.frameworks.conventions import load_all
from codeqa.frameworks.intent import intents
from codeqa.records import Chunk

SCHEDULER = """  def run
    @scheduler.join
  end

  private

  def run_schedule(time)
    with_mutex do
      if AgentRunScheduleJob.perform_later(time)
        puts "Queued schedule for #{time}"
      end
    end
  end

  def propagate!
    with_mutex do
      return unless AgentPropagateJob.can_enqueue?
      puts "Queuing event propagation"
      AgentPropagateJob.perform_later
    end
  end"""
SCHEDULER_NAMES = "HuginnScheduler.run, HuginnScheduler.run_schedule, HuginnScheduler.propagate!"
JOB = """class AgentPropagateJob < ActiveJob::Base
  queue_as :propagation

  def perform
    Agent.receive!
  end
end"""
JOBS = "How are agents scheduled and run?"


def _line(chunk: Chunk, text: str) -> int:
    return chunk.start_line + chunk.text.split("\n").index(text)


def _said(chunk: Chunk) -> list[str]:
    rails = [c for c in load_all() if c.name in ("Rails", "any framework")]
    return [m.phrase for m in matches_in(chunk, rails, intents(JOBS))]


def test_a_call_that_queues_a_job_is_not_said_to_run_in_the_background():
    scheduler = Chunk("lib/huginn_scheduler.rb", "ruby", 154, 154 + SCHEDULER.count("\n"), SCHEDULER,
                      SCHEDULER_NAMES, "method", "")  # fmt: skip
    said = _said(scheduler)
    assert "queues `AgentRunScheduleJob` to run in the background" in said, said
    assert "runs in the background (Active Job)" not in said, said


def test_a_job_class_still_runs_in_the_background():
    job = Chunk("app/jobs/agent_propagate_job.rb", "ruby", 1, 7, JOB, "AgentPropagateJob", "class", "service")
    assert "runs in the background (Active Job)" in _said(job)


def test_a_call_is_said_of_the_definition_that_makes_it():
    scheduler = Chunk("lib/huginn_scheduler.rb", "ruby", 154, 154 + SCHEDULER.count("\n"), SCHEDULER,
                      SCHEDULER_NAMES, "method", "")  # fmt: skip
    line = _line(scheduler, "      return unless AgentPropagateJob.can_enqueue?")
    use = Use("AgentPropagateJob.can_enqueue?", line, "calls", "return unless AgentPropagateJob.can_enqueue?")
    assert caller_name(use, scheduler) == "HuginnScheduler.propagate!"


HANDLE = """    public function handle(): void
    {
        $this->recurrences = $this->filterRecurrences($this->recurrences);
    }"""
SETTERS = """    public function setDate(Carbon $date): void
    {
        $this->date = $date;
    }

    public function setForce(bool $force): void
    {
        $this->force = $force;
    }

    private function filterRecurrences(Collection $recurrences): Collection
    {
        return $recurrences->filter($this->validRecurrence(...));
    }"""
VALID = """    private function validRecurrence(Recurrence $recurrence): bool
    {
        return $recurrence->active;
    }"""
PATH = "app/Jobs/CreateRecurringTransactions.php"


def test_a_step_is_said_of_the_definition_that_makes_its_call():
    entry = Chunk(PATH, "php", 100, 103, HANDLE, "CreateRecurringTransactions.handle", "method", "service")
    names = "CreateRecurringTransactions.setDate, CreateRecurringTransactions.setForce, " \
            "CreateRecurringTransactions.filterRecurrences"  # fmt: skip
    setters = Chunk(PATH, "php", 156, 156 + SETTERS.count("\n"), SETTERS, names, "method", "service")
    valid = Chunk(PATH, "php", 409, 412, VALID, "CreateRecurringTransactions.validRecurrence", "method", "service")
    first = Use("filterRecurrences", 102, "calls", HANDLE.split("\n")[2].strip())
    text = "        return $recurrences->filter($this->validRecurrence(...));"
    second = Use("validRecurrence", _line(setters, text), "calls", text.strip())
    found = Walk(entry, "CreateRecurringTransactions.handle", [Hop(entry, setters, first, True),
                                                               Hop(setters, valid, second, True)])  # fmt: skip
    steps = [plain for _, plain in walk_steps(found)]
    assert steps[1].startswith("2. CreateRecurringTransactions.filterRecurrences ("), steps
    assert "setDate" not in "\n".join(steps), steps
