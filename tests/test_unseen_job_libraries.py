"""Background work outside Rails, Laravel and Django was no job to the answer: asked how summary emails are scheduled
(NodeBB), how feeds are refreshed periodically (Miniflux) or what removes unconfirmed accounts (JHipster), the code
that runs on a timetable held no construct, so the answers opened on code that only shares the question's words.

The libraries are the ones those ecosystems document for it: Celery and APScheduler, cron/node-cron/Agenda/BullMQ,
Go tickers and robfig/cron, Spring's ``@Scheduled``/``@Async``/Quartz and message listeners, ``@nestjs/schedule``
and ``@nestjs/bullmq``. Each fixture is the app's code.
"""

from __future__ import annotations

from codeqa.answer.explanation.constructs.mechanism import matches_in
from codeqa.frameworks.conventions import load_all
from codeqa.frameworks.intent import intents
from codeqa.records import Chunk

JOBS = intents("How are the daily summary emails scheduled in the background?")

# NodeBB src/cron.js, lines 42-43
NODE_CRON = """\tconst job = new CronJob(cronTime, async function () {
\t\tconst start = Date.now();"""
# Miniflux internal/metric/metric.go, lines 172-173
GO_TICKER = """func (c *collector) GatherStorageMetrics(ctx context.Context) {
\tticker := time.NewTicker(c.refreshInterval)"""
# JHipster sample app, UserService.java, lines 290-291
SPRING_SCHEDULED = """    @Scheduled(cron = "0 0 1 * * ?")
    public void removeNotActivatedUsers() {"""
# eladmin ExecutionJob.java line 45 and JobServiceImpl.java line 45: a Quartz job, and a service named after jobs
QUARTZ = "public class ExecutionJob extends QuartzJobBean {"
JOB_SERVICE = "public class JobServiceImpl implements JobService {"
CELERY = """@celery.task(bind=True, max_retries=3)
def send_digest(self, user_id):"""
NEST = """  @Cron(CronExpression.EVERY_DAY_AT_MIDNIGHT)
  async handleCron() {"""


def _said(path: str, language: str, text: str) -> list[str]:
    chunk = Chunk(path, language, 1, text.count("\n") + 1, text, "", "function", "")
    return [m.phrase for m in matches_in(chunk, load_all(), JOBS)]


def test_code_on_a_timetable_is_said_to_run_on_one() -> None:
    # NodeBB's `addJob` makes the `CronJob` and hands it its callers' `onTick`: it puts work on the timetable, it does
    # not run on it (a method under `@Scheduled` or `@Cron` does)
    assert _said("src/cron.js", "javascript", NODE_CRON) == ["puts work on a timetable (cron)"]
    assert _said("internal/metric/metric.go", "go", GO_TICKER) == ["runs on a timer (`time.NewTicker`)"]
    assert _said("src/main/java/UserService.java", "java", SPRING_SCHEDULED) == ["runs on a timetable (`@Scheduled`)"]
    assert _said("src/users/users.cron.ts", "typescript", NEST) == ["runs on a timetable (`@nestjs/schedule`)"]


def test_a_job_class_or_task_runs_in_the_background_and_a_namesake_does_not() -> None:
    assert _said("ExecutionJob.java", "java", QUARTZ) == ["runs in the background (`@Async` or a Quartz job)"]
    assert _said("app/tasks.py", "python", CELERY) == ["runs outside the request (a Celery task)"]
    assert _said("JobServiceImpl.java", "java", JOB_SERVICE) == []  # a service about jobs is no job
    assert _said("src/cron.js", "javascript", "const { CronJob } = require('cron');") == []  # importing runs nothing
