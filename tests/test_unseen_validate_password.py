"""Read on symfony/demo (a Symfony app, in no data set), asked "How does user authentication flow through the
system?": the answer led on "AddUserCommand.validateUserData (src/Command/AddUserCommand.php:195-215) checks the
password" — a console command whose ``$this->validator->validatePassword($plainPassword)`` checks that a new password
is not empty and has six characters; it checks no one's credentials. ``validate…Password(`` is a password's form
(miniflux's ``validatePassword(request.Password)``, Django's ``password_validation.validate_password``, NodeBB's
``validatePassword(password, password_confirm)``), not a sign-in's check.
"""

from __future__ import annotations

import pytest

from codeqa.frameworks.conventions import load_all

CHECKS = "checks the password"


def _said(line: str) -> list[str]:
    common = next(c for c in load_all() if c.common)
    return [c.describe(m) for c in common.constructs if (m := c.pattern.search(line))]


@pytest.mark.parametrize(
    "line",
    [
        "        $this->validator->validatePassword($plainPassword);",  # symfony/demo
        "            password_validation.validate_password(data['password'], self.instance)",  # netbox
        "\tif err := validatePassword(request.Password); err != nil {",  # miniflux
    ],
)
def test_validating_a_new_password_s_form_is_no_password_check(line: str) -> None:
    assert CHECKS not in _said(line)


@pytest.mark.parametrize(
    "line",
    [
        "        if (!password_verify($password, $user->password)) {",
        "    if not check_password_hash(user.password, password):",
        "        if (!Hash::check($request->password, $user->password)) {",
    ],
)
def test_checking_a_password_against_the_stored_one_is(line: str) -> None:
    assert CHECKS in _said(line)
