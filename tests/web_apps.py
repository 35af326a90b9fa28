"""Three small web applications in the shape real ones have: Flask (Python), Express (JavaScript), Rails (Ruby).

Each has an entry point (route / controller) that calls a service that calls a model, plus code that only looks
related (a template named after a function, a helper that mentions the same words), so tests can check that
answers show the lines that matter and follow the real calls in the right order.
"""

FLASK_APP: dict[str, str] = {
    "app/__init__.py": '''"""The forum application."""
from flask import Flask


def create_app():
    app = Flask(__name__)
    from app.routes.auth import bp

    app.register_blueprint(bp)
    return app
''',
    "app/routes/auth.py": '''"""Sign-in and sign-out routes."""
from flask import Blueprint, abort, request, session

from app.services.auth_service import authenticate

bp = Blueprint("auth", __name__)


@bp.route("/login", methods=["POST"])
def login():
    """Sign a user in with email and password."""
    email = request.form["email"]
    password = request.form["password"]
    user = authenticate(email, password)
    if user is None:
        abort(401)
    session["user_id"] = user.id
    return {"ok": True}


@bp.route("/logout")
def logout():
    session.pop("user_id", None)
    return {"ok": True}
''',
    "app/services/auth_service.py": '''"""Checking credentials."""
from app.models.user import User

MAX_FAILED_LOGINS = 5


def authenticate(email, password):
    """Return the user whose password matches, or None; too many failures lock the account."""
    user = User.find_by_email(email)
    if user is None:
        return None
    if user.failed_logins >= MAX_FAILED_LOGINS:
        return None
    if not user.check_password(password):
        user.failed_logins += 1
        return None
    return user
''',
    "app/models/user.py": '''"""The user table."""
from werkzeug.security import check_password_hash, generate_password_hash

from app.db import db


class User(db.Model):
    """A registered user of the forum."""

    def set_password(self, password):
        self.password_hash = generate_password_hash(password)

    def check_password(self, password):
        return check_password_hash(self.password_hash, password)

    @classmethod
    def find_by_email(cls, email):
        return cls.query.filter_by(email=email).first()
''',
    "app/db.py": '''"""The database handle."""
from flask_sqlalchemy import SQLAlchemy

db = SQLAlchemy()
''',
    "app/email.py": '''"""Mails sent to users."""


def send_password_reset_email(user):
    """Mail a link to reset the password."""
    return render_mail("authenticate.html", user=user)


def render_mail(template, **context):
    return template.format(**context)
''',
    "README.md": "# Forum\n\nA small forum: users sign in with a password.\n",
}

EXPRESS_APP: dict[str, str] = {
    "src/app.js": """const express = require('express');
const articles = require('./routes/articles');
const { errorHandler } = require('./middleware/errors');

const app = express();
app.use(express.json());
app.use('/api', articles);
app.use(errorHandler);

module.exports = app;
""",
    "src/routes/articles.js": """const express = require('express');
const { createArticle } = require('../services/articleService');

const router = express.Router();

async function postArticle(req, res, next) {
  try {
    const article = await createArticle(req.user, req.body);
    res.status(201).json({ article });
  } catch (err) {
    next(err);
  }
}

router.post('/articles', postArticle);

module.exports = router;
""",
    "src/services/articleService.js": """const { Article } = require('../models/article');

function validateArticle(data) {
  if (!data.title) {
    throw Object.assign(new Error('title is required'), { status: 422 });
  }
}

async function createArticle(author, data) {
  validateArticle(data);
  const slug = data.title.toLowerCase().replace(/ /g, '-');
  const article = await Article.save({ slug, title: data.title, body: data.body, authorId: author.id });
  return article;
}

module.exports = { createArticle, validateArticle };
""",
    "src/models/article.js": """const db = require('../db');

class Article {
  static async save(fields) {
    const [row] = await db('articles').insert(fields).returning('*');
    return row;
  }

  static async findBySlug(slug) {
    return db('articles').where({ slug }).first();
  }
}

module.exports = { Article };
""",
    "src/middleware/errors.js": """function errorHandler(err, req, res, next) {
  const status = err.status || 500;
  res.status(status).json({ error: err.message });
}

module.exports = { errorHandler };
""",
    "src/db.js": """const knex = require('knex');

module.exports = knex({ client: 'pg', connection: process.env.DATABASE_URL });
""",
}

RAILS_APP: dict[str, str] = {
    "app/controllers/sessions_controller.rb": """class SessionsController < ApplicationController
  def create
    user = LoginService.new.call(params[:email], params[:password])
    if user
      session[:user_id] = user.id
      redirect_to root_path
    else
      render :new, status: :unauthorized
    end
  end

  def destroy
    reset_session
    redirect_to root_path
  end
end
""",
    "app/services/login_service.rb": """class LoginService
  MAX_ATTEMPTS = 5

  def call(email, password)
    user = User.find_by(email: email.downcase)
    return nil if user.nil? || user.failed_attempts >= MAX_ATTEMPTS
    return user if user.valid_password?(password)

    user.increment!(:failed_attempts)
    nil
  end
end
""",
    "app/models/user.rb": """class User < ApplicationRecord
  has_secure_password

  def valid_password?(password)
    authenticate(password).present?
  end

  def full_name
    [first_name, last_name].join(' ')
  end
end
""",
    "app/controllers/application_controller.rb": """class ApplicationController < ActionController::Base
  def current_user
    @current_user ||= User.find_by(id: session[:user_id])
  end
end
""",
    "config/routes.rb": """Rails.application.routes.draw do
  resource :session, only: [:new, :create, :destroy]
  root 'home#index'
end
""",
}


def build_web_home(base, names=("flask", "express", "rails")):
    """A data dir under ``base`` holding one real index per app (real git repositories, real pipeline)."""
    from codeqa.config import Settings
    from tests.conftest import init_repo
    from tests.helpers import build_index

    apps = {"flask": FLASK_APP, "express": EXPRESS_APP, "rails": RAILS_APP}
    home = base / "home"
    for name in names:
        build_index(str(init_repo(base / name, apps[name])), Settings(home=home), name=name)
    return home
