"""A sign-up question is not a sign-in question (issue #35): "how does a new person sign up?" was read as a question
about signing in ("sign up" was a word of ``auth``), so its answer opened on the login handler, the password check or
the settings "that configure how users sign in". Signing up is its own topic (``intent.SIGNUP``): the framework's
sign-in constructs stay quiet unless the question also asks about signing in, and a question about signing up itself
opens on the code the app routes its sign-up URL to, the way a sign-in question opens on its login URL's.

Two small real apps, each indexed by the real pipeline (tree-sitter, Chroma, the packaged embedding model): an
Express app with /login and /signup routes (Passport, bcrypt) and a Django REST framework app whose viewset routes
``register`` by its name beside settings that configure sign-in.
"""

from __future__ import annotations

import re

import pytest

from codeqa.answer.rendering.citations import check_citations
from codeqa.config import Settings
from codeqa.frameworks.intent import intents, signing_up_asked
from tests.helpers import ask_named

EXPRESS_APP: dict[str, str] = {
    "package.json": '{"name": "club", "dependencies": {"express": "^4.18.0", "passport": "^0.6.0", '
    '"passport-local": "^1.0.0", "bcrypt": "^5.1.0"}}\n',
    "app.js": """const express = require('express');
const passport = require('passport');
const sessionController = require('./controllers/session');
const userController = require('./controllers/user');
require('./config/passport');

const app = express();
app.use(express.urlencoded({ extended: true }));
app.use(passport.initialize());
app.use(passport.session());

app.get('/login', sessionController.getLogin);
app.post('/login', sessionController.postLogin);
app.get('/logout', sessionController.logout);
app.get('/signup', userController.getSignup);
app.post('/signup', userController.postSignup);
app.get('/confirm/:token', userController.getConfirm);

app.listen(3000);
module.exports = app;
""",
    "config/passport.js": """const passport = require('passport');
const { Strategy: LocalStrategy } = require('passport-local');
const bcrypt = require('bcrypt');
const User = require('../models/User');

passport.use(new LocalStrategy({ usernameField: 'email' }, async (email, password, done) => {
  const user = await User.findOne({ email: email.toLowerCase() });
  if (!user) {
    return done(null, false, { msg: `Email ${email} not found.` });
  }
  const isMatch = await bcrypt.compare(password, user.password);
  if (!isMatch) {
    return done(null, false, { msg: 'Invalid email or password.' });
  }
  return done(null, user);
}));
""",
    "config/settings.js": """module.exports = {
  registrationOpen: process.env.REGISTRATION_OPEN !== 'false',
};
""",
    "controllers/session.js": """const passport = require('passport');

exports.getLogin = (req, res) => {
  res.render('account/login', { title: 'Login' });
};

exports.postLogin = (req, res, next) => {
  passport.authenticate('local', (err, user, info) => {
    if (err) { return next(err); }
    if (!user) {
      req.flash('errors', info);
      return res.redirect('/login');
    }
    req.logIn(user, (err) => {
      if (err) { return next(err); }
      res.redirect('/');
    });
  })(req, res, next);
};

exports.logout = (req, res) => {
  req.logout(() => res.redirect('/'));
};
""",
    "controllers/user.js": """const crypto = require('crypto');
const bcrypt = require('bcrypt');
const User = require('../models/User');
const mailer = require('../services/mailer');
const settings = require('../config/settings');

exports.getSignup = (req, res) => {
  if (!settings.registrationOpen) {
    return res.status(403).render('account/closed', { title: 'Registration is closed' });
  }
  res.render('account/signup', { title: 'Create Account' });
};

exports.postSignup = async (req, res, next) => {
  if (!settings.registrationOpen) {
    return res.status(403).send('New accounts are not accepted on this server.');
  }
  const existing = await User.findOne({ email: req.body.email });
  if (existing) {
    req.flash('errors', { msg: 'Account with that email address already exists.' });
    return res.redirect('/signup');
  }
  const user = new User({
    email: req.body.email,
    password: await bcrypt.hash(req.body.password, 10),
    active: false,
    confirmToken: crypto.randomBytes(16).toString('hex'),
  });
  await user.save();
  await mailer.sendConfirmation(user);
  res.redirect('/');
};

exports.getConfirm = async (req, res) => {
  const user = await User.findOne({ confirmToken: req.params.token });
  if (!user) {
    return res.status(404).send('This confirmation link is not valid.');
  }
  user.active = true;
  user.confirmToken = undefined;
  await user.save();
  res.redirect('/login');
};
""",
    "services/mailer.js": """const nodemailer = require('nodemailer');

const transport = nodemailer.createTransport({ host: process.env.SMTP_HOST });

exports.sendConfirmation = async (user) => {
  const link = `${process.env.BASE_URL}/confirm/${user.confirmToken}`;
  await transport.sendMail({ to: user.email, subject: 'Confirm your address', text: `Open ${link} to confirm.` });
};
""",
    "models/User.js": """const mongoose = require('mongoose');

const userSchema = new mongoose.Schema({
  email: { type: String, unique: true },
  password: String,
  active: Boolean,
  confirmToken: String,
});

module.exports = mongoose.model('User', userSchema);
""",
}

DRF_APP: dict[str, str] = {
    "requirements.txt": "Django==4.2\ndjangorestframework==3.14\n",
    "settings/common.py": """INSTALLED_APPS = ['django.contrib.auth', 'rest_framework', 'teams.auth']
AUTHENTICATION_BACKENDS = (
    'django.contrib.auth.backends.ModelBackend',
)
REST_FRAMEWORK = {
    'DEFAULT_AUTHENTICATION_CLASSES': (
        'teams.auth.authentication.TokenAuthentication',
    ),
}
PUBLIC_REGISTER_ENABLED = False
""",
    "teams/routers.py": """from rest_framework import routers

from teams.auth.api import AuthViewSet

router = routers.DefaultRouter(trailing_slash=False)
router.register(r"auth", AuthViewSet, basename="auth")
""",
    "teams/auth/__init__.py": "",
    "teams/auth/api.py": """from django.conf import settings
from rest_framework import viewsets
from rest_framework.decorators import action
from rest_framework.exceptions import ValidationError
from rest_framework.response import Response

from teams.auth.services import accept_invitation, login_user, public_register


class AuthViewSet(viewsets.ViewSet):
    permission_classes = ()

    def create(self, request, **kwargs):
        user = login_user(request.data["username"], request.data["password"])
        return Response({"token": user.auth_token.key})

    def _public_register(self, request):
        if not settings.PUBLIC_REGISTER_ENABLED:
            raise ValidationError("Public registration is disabled.")
        user = public_register(request.data["username"], request.data["email"], request.data["password"])
        return Response({"id": user.id}, status=201)

    def _invited_register(self, request):
        user = accept_invitation(request.data["token"], request.data["username"], request.data["password"])
        return Response({"id": user.id}, status=201)

    @action(detail=False, methods=["post"])
    def register(self, request, **kwargs):
        if request.data.get("type") == "invited":
            return self._invited_register(request)
        return self._public_register(request)
""",
    "teams/auth/services.py": """from django.contrib.auth import authenticate, get_user_model
from rest_framework.exceptions import AuthenticationFailed, ValidationError

from teams.members.models import Invitation


def login_user(username, password):
    user = authenticate(username=username, password=password)
    if user is None:
        raise AuthenticationFailed("Invalid username or password.")
    return user


def public_register(username, email, password):
    if get_user_model().objects.filter(username=username).exists():
        raise ValidationError("Username is already in use.")
    return get_user_model().objects.create_user(username=username, email=email, password=password)


def accept_invitation(token, username, password):
    invitation = Invitation.objects.filter(token=token).first()
    if invitation is None:
        raise ValidationError("Invalid invitation token.")
    user = get_user_model().objects.create_user(username=username, email=invitation.email, password=password)
    invitation.accept(user)
    return user
""",
    "teams/members/__init__.py": "",
    "teams/members/models.py": """from django.db import models


class Invitation(models.Model):
    email = models.EmailField()
    token = models.CharField(max_length=60, unique=True)
    accepted_by = models.ForeignKey('auth.User', null=True, on_delete=models.SET_NULL)

    def accept(self, user):
        self.accepted_by = user
        self.save()
""",
}

INDEXED_APPS = {"club": EXPRESS_APP, "teams": DRF_APP}  # indexed once by apps_home (tests/conftest.py)

# what the sign-in constructs and the sign-in entry say: false of a question about signing up
SIGN_IN_SAID = re.compile(
    r"checks the password|hands sign-in to Passport|signs the user in|configures how users sign in|sign-in URL|"
    r"defines how Passport checks the credentials"
)


def answer(apps_settings: Settings, name: str, question: str) -> str:
    result = ask_named(name, question, apps_settings, backend="none").result()
    assert not result.generated and check_citations(result.text, result.sources).invalid == []
    return result.text


def opening(text: str) -> str:
    """The answer's opening paragraph (the sentences before its sources)."""
    return text.split("\n- **[1]**", 1)[0]


@pytest.mark.parametrize(
    ("question", "expected"),
    [
        ("How does a new person sign up?", ("signup",)),
        ("Someone wants to stop strangers from creating accounts. How is sign-up switched off?", ("signup",)),
        ("When a new person registers, how does their account get its default lists?", ("signup",)),
        ("How do new people join the team's chat? Is there an invite link?", ("signup",)),
        ("After someone signs up, why can't they log in straight away?", ("signup", "auth")),
        ("When someone signs in with GitHub, how is a new account created?", ("auth", "signup")),
        ("I don't want strangers signing up; how do I make joining invitation-only?", ("signup",)),
        # enrolment is no account; code registered somewhere is no sign-up
        ("When someone signs up for a meeting, what is stored?", ()),
        ("What happens right after I sign up to help a project?", ()),
        ("Which maintenance tasks run every day, and where are they registered?", ("jobs",)),
        ("How does the report join transactions with their categories?", ()),
        # sign-in questions are unchanged
        ("How does user authentication flow through the system?", ("auth",)),
        ("Where is a failed login logged?", ("errors", "logging", "auth")),
    ],
)
def test_sign_up_is_its_own_intent(question: str, expected: tuple[str, ...]) -> None:
    assert intents(question) == expected


def test_a_sign_up_that_sets_the_time_is_not_what_is_asked() -> None:
    assert signing_up_asked("How does a new person sign up, and what happens when only invited people may join?")
    assert signing_up_asked("Someone wants to stop strangers from creating accounts on it. How is it switched off?")
    assert not signing_up_asked("After someone signs up, how do they prove the address is theirs?")
    assert not signing_up_asked("When a new person registers, how does their account get filled with defaults?")
    assert not signing_up_asked("What happens to people who sign up but never confirm their email address?")
    # an invitation is sign-up's topic (no sign-in sentence), but it asks about the invitation, not the sign-up URL
    assert intents("How are meeting invitations sent?") == ("signup",)
    assert not signing_up_asked("How are meeting invitations sent?")


def test_a_sign_up_question_opens_on_the_signup_route_not_the_sign_in(apps_settings: Settings) -> None:
    text = answer(apps_settings, "club", "How does a new person sign up, and what happens when sign-up is closed?")
    first = opening(text)
    assert not SIGN_IN_SAID.search(first), first
    # the opening cites the handler's code and the app's own route line for it
    route = "is where the app routes its sign-up URL: `app.post('/signup', userController.postSignup);` (`app.js:"
    assert "(`controllers/user.js:" in first.split(route)[0] and route in first, first


def test_what_follows_a_sign_up_gets_no_sign_in_sentence(apps_settings: Settings) -> None:
    text = answer(apps_settings, "club", "After someone signs up, how do they confirm their email address?")
    first = opening(text)
    assert not SIGN_IN_SAID.search(first), first
    assert "sign-up URL" not in first, first  # the question asks what follows, not the sign-up itself


def test_a_sign_in_question_still_opens_on_the_login_handler(apps_settings: Settings) -> None:
    text = answer(apps_settings, "club", "How does user authentication flow through the system?")
    first = opening(text)
    # the sign-in entry (the code /login is routed to) opens, its Passport hand-over said: as before sign-up's intent
    assert first.index("(`controllers/session.js:") < first.index("hands sign-in to Passport"), first
    assert "sign-up" not in first, first


def test_a_viewset_action_named_register_opens_a_sign_up_question(apps_settings: Settings) -> None:
    text = answer(
        apps_settings, "teams", "How does a new person sign up, and what happens when only invited people may join?"
    )
    first = opening(text)
    assert not SIGN_IN_SAID.search(first), first
    # REST framework routes /auth/register to the action by its name: the definition line is the route
    route = "is where the app routes its sign-up URL: `def register(self, request, **kwargs):` (`teams/auth/api.py:28`)"
    assert first.index("`AuthViewSet.register`") < first.index(route), first  # the action the route names
