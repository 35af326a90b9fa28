"""False sentences found on two apps codeqa had not seen: wger (Django) and kanboard (PHP), issue #35.

- wger's ``UserEditView.dispatch`` tests ``has_perm`` in a test split over lines (black's ``if (`` … ``):``); the
  answer said it "checks a permission (`has_perm`) on one branch only" (the test runs whenever the view does), and
  the ``return HttpResponseForbidden()`` under that test was taken to run every time (the ``):`` hid the ``if``);
- "``Command.add_arguments`` runs the command": a management command's argument list runs nothing;
- "``CanContributeExercises`` handles the request": a REST framework permission class only says yes or no;
- "``PermissionView`` chooses the permission checks requests to this view must pass" of ``permission_classes =
  (AllowAny,)``, which lets every request through;
- "it calls ``increment_workout`` (…:122-159), ``increment_workout`` (…:122-214)": one method cited from its head
  twice (its first piece and the whole of it).
"""

from __future__ import annotations

from codeqa.answer.explanation.calls.flow import Use
from codeqa.answer.explanation.code.condition import condition_at
from codeqa.answer.explanation.constructs.mechanism import matches_in
from codeqa.answer.explanation.explain import Explanation, Step
from codeqa.answer.explanation.said.extractive import VERBS, sentence
from codeqa.answer.explanation.said.roles_said import ARGUMENTS, PERMISSION, role_phrase
from codeqa.frameworks.conventions import load_all
from codeqa.frameworks.intent import intents
from codeqa.records import Chunk, Hit

EDIT_VIEW = '''class UserEditView(
    WgerFormMixin,
    LoginRequiredMixin,
    UpdateView,
):
    """
    View to update the personal information of an user by an admin
    """

    model = User

    def dispatch(self, request, *args, **kwargs):
        user = request.user
        if not user.is_authenticated:
            return HttpResponseForbidden()

        if (
            user.has_perm('gym.manage_gym')
            and not user.has_perm('gym.manage_gyms')
            and not is_same_gym(user, self.get_object())
        ):
            return HttpResponseForbidden()

        return super(UserEditView, self).dispatch(request, *args, **kwargs)'''  # from wger/core/views/user.py

JS_GUARD = """function canEdit(user, plan) {
  if (
    user.isAdmin ||
    plan.ownerId === user.id
  ) {
    return true;
  }
  return false;
}"""


def _chunk(text: str, path: str, symbol: str, kind: str, layer: str, start: int = 1, language: str = "python") -> Chunk:
    return Chunk(path, language, start, start + text.count("\n"), text, symbol, kind, layer)


def _line(chunk: Chunk, code: str) -> int:
    return chunk.start_line + next(n for n, text in enumerate(chunk.text.split("\n")) if code in text)


def test_a_line_of_a_test_split_over_lines_runs_whenever_the_test_does() -> None:
    view = _chunk(EDIT_VIEW, "wger/core/views/user.py", "UserEditView", "class", "view", start=466)
    assert condition_at(view, _line(view, "user.has_perm('gym.manage_gym')")) == ("", "")  # not "on one branch only"
    assert condition_at(view, _line(view, "and not is_same_gym")) == ("", "")
    assert condition_at(view, _line(view, "if not user.is_authenticated")) == ("", "")
    assert condition_at(view, _line(view, "return super(")) == ("", "")


def test_a_line_under_a_test_split_over_lines_runs_only_on_its_branch() -> None:
    view = _chunk(EDIT_VIEW, "wger/core/views/user.py", "UserEditView", "class", "view", start=466)
    lines = view.text.split("\n")
    forbidden = [view.start_line + n for n, text in enumerate(lines) if "return HttpResponseForbidden()" in text]
    assert condition_at(view, forbidden[0]) == ("when", "not user.is_authenticated")
    assert condition_at(view, forbidden[1]) is None  # under `if ( … ):`, not every time (the `):` hid the `if`)
    guard = _chunk(JS_GUARD, "src/plans.js", "canEdit", "function", "service", language="javascript")
    assert condition_at(guard, _line(guard, "return true")) is None  # `) {` closes the `if (` above it
    assert condition_at(guard, _line(guard, "user.isAdmin")) == ("", "")
    assert condition_at(guard, _line(guard, "return false")) == ("", "")


ADD_ARGUMENTS = """    def add_arguments(self, parser):
        parser.add_argument(
            '--plans',
            action='store',
            default=10,
            dest='number_plans',
            type=int,
            help='The number of nutritional plans to create per user (default: 10)',
        )"""
COMMAND = '''class Command(BaseCommand):
    """
    Helper admin command to send out email reminders
    """

    def handle(self, **options):
        for profile in UserProfile.objects.filter(workout_reminder_active=True):
            self.send_email(profile.user)'''


def test_a_commands_argument_list_declares_its_arguments_and_runs_nothing() -> None:
    path = "wger/nutrition/management/commands/dummy-generator-nutrition.py"
    arguments = _chunk(ADD_ARGUMENTS, path, "Command.add_arguments", "method", "cli", start=49)
    assert role_phrase(arguments, VERBS, "is here") == ARGUMENTS
    command = _chunk(COMMAND, "wger/manager/management/commands/email-reminders.py", "Command", "class", "cli")
    assert role_phrase(command, VERBS, "is here") == "runs the command"


PERMISSION_CLASS = '''class CanContributeExercises(BasePermission):
    """
    Checks that users are allowed to create or edit an exercise.
    """

    SAFE_METHODS = ['GET', 'HEAD', 'OPTIONS']

    def has_permission(self, request, view):
        if request.method in self.SAFE_METHODS:
            return True
        if not request.user.is_authenticated:
            return False
        return request.user.userprofile.is_trustworthy'''
VIEWSET = '''class PermissionView(viewsets.ViewSet):
    """
    Checks whether the user has a django permission
    """

    permission_classes = (AllowAny,)

    def list(self, request):
        permission = request.query_params.get('permission')
        return Response({'result': request.user.has_perm(permission)})'''


def test_a_permission_class_decides_whether_a_request_goes_on_and_handles_none() -> None:
    check = _chunk(PERMISSION_CLASS, "wger/exercises/api/permissions.py", "CanContributeExercises", "class", "api")
    assert role_phrase(check, VERBS, "is here") == PERMISSION
    view = _chunk(VIEWSET, "wger/core/api/views.py", "PermissionView", "class", "api", start=198)
    assert role_phrase(view, VERBS, "is here") == "handles the request"


def test_allow_any_chooses_no_permission_check() -> None:
    view = _chunk(VIEWSET, "wger/core/api/views.py", "PermissionView", "class", "api", start=198)
    said = {m.line: m.phrase for m in matches_in(view, load_all(), intents("How are permissions checked?"))}
    assert 203 not in said, said  # `permission_classes = (AllowAny,)`: every request goes through
    guarded = _chunk(VIEWSET.replace("(AllowAny,)", "(CanContributeExercises,)"), view.path, "V", "class", "api", 198)
    said = {m.line: m.phrase for m in matches_in(guarded, load_all(), intents("How are permissions checked?"))}
    assert said[203] == "chooses the permission checks requests to this view must pass (REST framework)"


def test_one_method_cited_from_its_head_twice_is_one_callee() -> None:
    signal = _chunk(
        "@receiver(post_save, sender=WorkoutLog)\ndef workout_log_saved(sender, instance, created, **kwargs):\n"
        "    UserStatisticsService.increment_workout(user=instance.user, workout_log=instance)",
        "wger/trophies/signals.py", "workout_log_saved", "function", "service", start=83,
    )  # fmt: skip
    path, name = "wger/trophies/services/statistics.py", "UserStatisticsService.increment_workout"
    body = "    @classmethod\n    def increment_workout(cls, user, session=None, workout_log=None):\n"
    first = _chunk(body + "        stats = cls.get_or_create_statistics(user)", path, name, "method", "service", 122)
    whole = _chunk(body + "        stats.save()\n" * 3, path, name, "method", "service", 122)
    steps = [Step(n, Hit(c, 1.0, c.id), "", [], "") for n, c in enumerate((signal, first, whole), 1)]
    use = Use(name, 85, "calls", "UserStatisticsService.increment_workout(user=instance.user, workout_log=instance)")
    steps[0].calls = [(2, use), (3, use)]
    said = sentence(steps[0], Explanation("How is a workout saved?", steps, [], [], []), None, None)
    assert said.count("`UserStatisticsService.increment_workout`") == 1, said
