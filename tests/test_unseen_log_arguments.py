# ruff: noqa: E501 - the fixture is the real code, lines as long as they are
"""A log call's argument lines took the places of a span's key lines (issue #35, class 6: the key line cut).

Found on the real-size apps (``bench/data/realsize_dev.jsonl``):

- indico, "When the app sends an email while handling a page action, when does it actually go out, and what happens
  if the mail server cannot be reached?": ``send_email_task`` (``indico/core/emails.py:37-73``) showed line 55,
  ``truncate(email['subject'], 100), attempt, MAX_TRIES, exc, path)``, the second half of a ``logger.error(`` call
  (half a statement, and a log call at that), while ``task.retry(countdown=delay, max_retries=(MAX_TRIES - 1))``
  (line 45), the retry the question asks about, was cut. The first line of a log call was quiet; its argument
  lines read as calls holding the question's word "email".
- monica, "How do I get told about a friend's birthday on the right day, and what happens if sending that reminder
  keeps failing?": ``ProcessScheduledContactReminders::handle`` (14 lines) showed ``Log::error('Error sending
  reminder', [`` and its ``'message' => $e->getMessage(),`` line, and cut ``$userNotificationChannel->active = false;``
  (line 72), the channel switched off after too many failures.
"""

from __future__ import annotations

from codeqa.answer.explanation.code.keylines import question_terms
from codeqa.answer.explanation.code.logargs import log_continuations
from codeqa.answer.explanation.sources.choose import source_lines
from codeqa.records import Chunk
from codeqa.retrieve.question import Question


def _shown(question: str, code: str, start: int, limit: int, path: str, language: str) -> list[str]:
    chunk = Chunk(path, language, start, start + code.count("\n"), code, "", "function", "core")
    terms = question_terms(Question.parse(question))
    return [line.text.strip() for line in source_lines(terms, chunk, [], limit)]


# indico/core/emails.py:37-73
INDICO_SEND_EMAIL = """@celery.task(name='send_email', bind=True, max_retries=None)
def send_email_task(task, email, log_entry=None):
    attempt = task.request.retries + 1
    try:
        do_send_email(email, log_entry, _from_task=True)
    except Exception as exc:
        delay = ([*DELAYS, 0])[task.request.retries] if not config.DEBUG else 1
        try:
            task.retry(countdown=delay, max_retries=(MAX_TRIES - 1))
        except MaxRetriesExceededError:
            if log_entry:
                update_email_log_state(log_entry, failed=True)
                db.session.commit()
            # store the email in case the mail server is  unavailable for an
            # extended period so someone can recover it using `indico shell`
            # and possibly retry sending it
            path = store_failed_email(email, log_entry)
            logger.error('Could not send email "%s" (attempt %d/%d); giving up [%s]; stored data in %s',
                         truncate(email['subject'], 100), attempt, MAX_TRIES, exc, path)
        except Retry:
            logger.warning('Could not send email "%s" (attempt %d/%d); retry in %ds [%s]',
                           truncate(email['subject'], 100), attempt, MAX_TRIES, delay, exc)
            raise
    else:
        event_id = getattr(log_entry, 'event_id', None) if log_entry else None
        if task.request.retries and event_id is not None:
            logger.info('Sent email "%s" for event %d (attempt %d/%d)', truncate(email['subject'], 100), event_id,
                        attempt, MAX_TRIES)
        elif task.request.retries:
            logger.info('Sent email "%s" (attempt %d/%d)', truncate(email['subject'], 100), attempt, MAX_TRIES)
        elif event_id is not None:
            logger.info('Sent email "%s" for event %d', truncate(email['subject'], 100), event_id)
        else:
            logger.info('Sent email "%s"', truncate(email['subject'], 100))
        # commit the log entry state change
        if log_entry:
            db.session.commit()"""

INDICO_QUESTION = (
    "When the app sends an email while handling a page action, when does it actually go out, and what happens if the "
    "mail server cannot be reached?"
)

# app/Domains/Contact/ManageReminders/Jobs/ProcessScheduledContactReminders.php:25-79
MONICA_REMINDERS = r"""    /**
     * Execute the job.
     *
     * @return void
     */
    public function handle()
    {
        // this cron job runs every five minutes, so we must make sure that
        // the date we run this cron against, has no seconds, otherwise getting
        // the scheduled reminders will not return any results
        $currentDate = Carbon::now();
        $currentDate->second = 0;

        $scheduledContactReminders = DB::table('contact_reminder_scheduled')
            ->where('scheduled_at', '<=', $currentDate)
            ->get();

        foreach ($scheduledContactReminders as $scheduledReminder) {
            $userNotificationChannel = UserNotificationChannel::findOrFail($scheduledReminder->user_notification_channel_id);

            try {
                $contactReminder = ContactReminder::find($scheduledReminder->contact_reminder_id);
                $contact = $contactReminder->contact;

                if ($contact !== null) {
                    $this->triggerNotification($userNotificationChannel, $contact, $contactReminder, $scheduledReminder);
                }

                $this->updateScheduledContactReminderTriggeredAt($scheduledReminder);
            } catch (\Exception $e) {
                // we don't want to stop the process if one of the notifications fails
                // we just want to log the error and continue with the next scheduled reminder
                Log::error('Error sending reminder', [
                    'message' => $e->getMessage(),
                    'scheduledReminder' => $scheduledReminder,
                ]);
                UserNotificationSent::create([
                    'user_notification_channel_id' => $userNotificationChannel->id,
                    'sent_at' => Carbon::now(),
                    'subject_line' => '',
                    'error' => $e->getMessage(),
                ]);

                $userNotificationChannel->refresh();
                $userNotificationChannel->fails += 1;

                if ($userNotificationChannel->fails >= config('monica.max_notification_failures', 10)) {
                    $userNotificationChannel->active = false;
                    $userNotificationChannel->contactReminders->each->delete();
                }

                $userNotificationChannel->save();
            }
        }
    }"""

MONICA_QUESTION = (
    "How do I get told about a friend's birthday on the right day, and what happens if sending that reminder keeps "
    "failing?"
)


def test_a_log_calls_argument_lines_are_not_shown_for_the_span_key_lines() -> None:
    shown = _shown(INDICO_QUESTION, INDICO_SEND_EMAIL, 37, 5, "indico/core/emails.py", "python")
    assert not any(line.startswith("truncate(email['subject'], 100)") for line in shown)
    shown = _shown(INDICO_QUESTION, INDICO_SEND_EMAIL, 37, 6, "indico/core/emails.py", "python")
    assert "task.retry(countdown=delay, max_retries=(MAX_TRIES - 1))" in shown


def test_the_switch_after_failures_is_not_cut_for_a_log_calls_arguments() -> None:
    path = "app/Domains/Contact/ManageReminders/Jobs/ProcessScheduledContactReminders.php"
    shown = _shown(MONICA_QUESTION, MONICA_REMINDERS, 25, 14, path, "php")
    assert "$userNotificationChannel->active = false;" in shown
    assert "'message' => $e->getMessage()," not in shown


def test_log_continuations_follow_the_open_brackets() -> None:
    lines = INDICO_SEND_EMAIL.split("\n")
    continued = {lines[i].strip()[:30] for i in log_continuations(lines)}
    assert continued == {
        "truncate(email['subject'], 100",
        "attempt, MAX_TRIES)",
    }
    assert not log_continuations(["logger.info('done')", "task.retry()"])  # a log call closed on its line
