"""Four small web applications built the way their frameworks expect (Express, Rails, Flask, Django), each with the
construct a newcomer's three first questions turn on — the error middleware, the ``before_action`` filter and
``rescue_from``, ``errorhandler`` and ``before_app_request``, the Django middleware and ``LOGGING`` — and with the
lookalikes that used to lead answers: a seed file, a migration, a commented-out initializer, routes that only
carry ``@login_required``, the same ``try/catch → next(error)`` block in many handlers.
"""

from __future__ import annotations

SEEDS = {
    "auth": "How does user authentication flow through the system?",
    "errors": "What happens when an API request fails?",
    "logging": "Where would I add logging to track user behavior?",
}


def _handler(name: str, call: str) -> str:
    return f"""async function {name}(req, res, next) {{
  try {{
    const result = await {call}(req.params.id, req.body);
    res.json(result);
  }} catch (error) {{
    next(error);
  }}
}}
"""


EXPRESS_APP: dict[str, str] = {
    "package.json": '{"name": "shop-api", "dependencies": {"express": "^4.19.0", "express-jwt": "^8.4.1"}}\n',
    "src/main.ts": """import express from 'express';
import { requireAuth } from './middleware/auth';
import { requestLogger } from './middleware/logger';
import { router } from './routes';

const app = express();
app.use(express.json());
app.use(requestLogger);
app.use('/api', requireAuth, router);

app.use((err: any, req: express.Request, res: express.Response, next: express.NextFunction) => {
  if (err.name === 'UnauthorizedError') {
    return res.status(401).json({ error: 'invalid token' });
  }
  const status = err.status || 500;
  res.status(status).json({ error: err.message });
});

app.listen(3000);
""",
    "src/middleware/auth.ts": """import { expressjwt } from 'express-jwt';

export const requireAuth = expressjwt({ secret: process.env.JWT_SECRET as string, algorithms: ['HS256'] });
""",
    "src/middleware/logger.ts": """export function requestLogger(req: any, res: any, next: any) {
  console.log(`${req.method} ${req.url}`);
  next();
}
""",
    "src/routes/index.ts": """import { Router } from 'express';
import * as orders from './orders';
import * as users from './users';

export const router = Router();
router.get('/orders/:id', orders.getOrder);
router.post('/orders', orders.createOrder);
router.get('/users/:id', users.getUser);
router.put('/users/:id', users.updateUser);
""",
    "src/routes/orders.ts": "import { findOrder, saveOrder } from '../services/orders';\n\nexport "
    + _handler("getOrder", "findOrder")
    + "\nexport "
    + _handler("createOrder", "saveOrder"),
    "src/routes/users.ts": "import { findUser, saveUser } from '../services/users';\n\nexport "
    + _handler("getUser", "findUser")
    + "\nexport "
    + _handler("updateUser", "saveUser"),
    "src/services/orders.ts": """export async function findOrder(id: string) {
  return { id };
}

export async function saveOrder(id: string, body: any) {
  if (!body.items) {
    throw Object.assign(new Error('an order needs items'), { status: 422 });
  }
  return { id, ...body };
}
""",
    "src/services/users.ts": """export async function findUser(id: string) {
  return { id };
}

export async function saveUser(id: string, body: any) {
  return { id, ...body };
}
""",
    "prisma/seed.ts": """// Seed the database: an admin user, and a request that failed once, for the error page demo.
async function main() {
  const user = { email: 'admin@example.com', failedRequests: 0 };
  const failedRequest = { path: '/api/orders', error: 'request failed', user };
  console.log('seeded user and failed request', failedRequest);
}

main();
""",
    "prisma/migrations/001_request_failures/migration.sql": """-- A table for API requests that failed
CREATE TABLE api_request_failures (id SERIAL PRIMARY KEY, user_id INT, error TEXT, failed_at TIMESTAMP);
""",
}

RAILS_APP: dict[str, str] = {
    "Gemfile": "source 'https://rubygems.org'\ngem 'rails', '~> 7.1'\ngem 'devise'\n",
    "config/routes.rb": """Rails.application.routes.draw do
  devise_for :users
  namespace :api do
    resources :orders, only: [:index, :create]
  end
end
""",
    "app/controllers/application_controller.rb": """class ApplicationController < ActionController::Base
  before_action :authenticate_user!
  after_action :track_action

  rescue_from ActiveRecord::RecordNotFound, with: :not_found

  private

  def not_found
    render json: { error: "not found" }, status: :not_found
  end

  def track_action
    Rails.logger.info("#{current_user&.id} #{controller_name}##{action_name}")
  end
end
""",
    "app/controllers/api/orders_controller.rb": """module Api
  class OrdersController < ApplicationController
    def index
      render json: current_user.orders
    end

    def create
      order = current_user.orders.build(order_params)
      if order.save
        render json: order, status: :created
      else
        render json: { errors: order.errors.full_messages }, status: :unprocessable_entity
      end
    end

    private

    def order_params
      params.require(:order).permit(:item, :quantity)
    end
  end
end
""",
    "app/models/user.rb": """class User < ApplicationRecord
  devise :database_authenticatable, :registerable, :trackable, :lockable
  has_many :orders
end
""",
    "config/initializers/devise.rb": """# Use this hook to configure devise mailer, warden hooks and so forth.
Devise.setup do |config|
  # ==> Configuration for :lockable
  # Defines which strategy will be used to lock an account after failed sign in attempts.
  # config.lock_strategy = :failed_attempts
  # config.maximum_attempts = 20
  # When a request fails authentication, warden calls the failure app:
  # config.warden do |manager|
  #   manager.failure_app = CustomFailureApp
  # end
  # config.sign_in_after_reset_password = true
  # config.navigational_formats = ['*/*', :html]
end
""",
    "db/migrate/20240101000000_add_failed_attempts.rb": """class AddFailedAttempts < ActiveRecord::Migration[7.1]
  def change
    add_column :users, :failed_attempts, :integer, default: 0
    add_column :users, :last_sign_in_at, :datetime
  end
end
""",
}

FLASK_APP: dict[str, str] = {
    "requirements.txt": "flask\nflask-login\n",
    "app/__init__.py": '''"""The application factory."""
import logging

from flask import Flask
from flask_login import LoginManager

login_manager = LoginManager()
login_manager.login_view = "auth.login"


def create_app():
    app = Flask(__name__)
    app.config.from_object("config.Config")
    login_manager.init_app(app)
    logging.basicConfig(filename="app.log", level=logging.INFO)
    from app.auth.routes import bp as auth_bp
    from app.errors import bp as errors_bp
    from app.main.routes import bp as main_bp

    app.register_blueprint(auth_bp)
    app.register_blueprint(errors_bp)
    app.register_blueprint(main_bp)
    return app
''',
    "app/errors.py": '''"""Error pages and JSON errors for the API."""
from flask import Blueprint, jsonify, render_template, request

bp = Blueprint("errors", __name__)


@bp.app_errorhandler(404)
def not_found(error):
    if request.path.startswith("/api/"):
        return jsonify(error="not found"), 404
    return render_template("errors/404.html"), 404


@bp.app_errorhandler(500)
def internal_error(error):
    return jsonify(error="internal server error"), 500
''',
    "app/auth/routes.py": '''"""Signing in and out."""
from flask import Blueprint, flash, redirect, request, url_for
from flask_login import current_user, login_user, logout_user
from werkzeug.security import check_password_hash

from app.models import User

bp = Blueprint("auth", __name__)


@bp.before_app_request
def before_request():
    if current_user.is_authenticated:
        current_user.ping()


@bp.route("/login", methods=["POST"])
def login():
    user = User.query.filter_by(email=request.form["email"]).first()
    if user is None or not check_password_hash(user.password_hash, request.form["password"]):
        flash("Invalid email or password")
        return redirect(url_for("auth.login"))
    login_user(user, remember=True)
    return redirect(url_for("main.index"))


@bp.route("/logout")
def logout():
    logout_user()
    return redirect(url_for("main.index"))
''',
    "app/models.py": '''"""Users."""
from datetime import datetime

from app import login_manager
from app.db import db


class User(db.Model):
    def ping(self):
        self.last_seen = datetime.utcnow()
        db.session.commit()


@login_manager.user_loader
def load_user(user_id):
    return User.query.get(int(user_id))
''',
    "app/db.py": """from flask_sqlalchemy import SQLAlchemy

db = SQLAlchemy()
""",
    "app/main/routes.py": '''"""Following other users."""
from flask import Blueprint, redirect, url_for
from flask_login import current_user, login_required

bp = Blueprint("main", __name__)


@bp.route("/follow/<username>")
@login_required
def follow(username):
    current_user.follow(username)
    return redirect(url_for("main.user", username=username))


@bp.route("/unfollow/<username>")
@login_required
def unfollow(username):
    current_user.unfollow(username)
    return redirect(url_for("main.user", username=username))
''',
    "migrations/versions/1a2b3c_add_last_seen.py": '''"""add last_seen and failed logins to user"""
from alembic import op
import sqlalchemy as sa


def upgrade():
    op.add_column("user", sa.Column("last_seen", sa.DateTime()))
    op.add_column("user", sa.Column("failed_logins", sa.Integer()))
''',
}

DJANGO_APP: dict[str, str] = {
    "manage.py": """import os
import sys

if __name__ == "__main__":
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "shop.settings")
    from django.core.management import execute_from_command_line

    execute_from_command_line(sys.argv)
""",
    "shop/settings.py": '''"""Settings of the shop."""
import os

SECRET_KEY = os.environ.get("SECRET_KEY", "dev")
INSTALLED_APPS = ["django.contrib.auth", "django.contrib.sessions", "core"]

MIDDLEWARE = [
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "core.middleware.ActivityMiddleware",
]

AUTHENTICATION_BACKENDS = ["core.backends.EmailBackend"]

LOGGING = {
    "version": 1,
    "handlers": {"file": {"class": "logging.FileHandler", "filename": "activity.log"}},
    "loggers": {"core.activity": {"handlers": ["file"], "level": "INFO"}},
}
''',
    "shop/urls.py": """from django.urls import path

from core import views

urlpatterns = [
    path("login/", views.login_view),
    path("api/orders/", views.orders),
]
""",
    "core/middleware.py": '''"""What every request passes through."""
import logging

from django.http import JsonResponse

logger = logging.getLogger("core.activity")


class ActivityMiddleware:
    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        response = self.get_response(request)
        logger.info("%s %s %s", request.user, request.method, request.path)
        return response

    def process_exception(self, request, exception):
        logger.exception("request failed: %s", request.path)
        return JsonResponse({"error": str(exception)}, status=500)
''',
    "core/backends.py": '''"""Signing in with an email address."""
from django.contrib.auth.backends import ModelBackend
from django.contrib.auth.models import User


class EmailBackend(ModelBackend):
    def authenticate(self, request, username=None, password=None, **kwargs):
        user = User.objects.filter(email=username).first()
        if user and user.check_password(password):
            return user
        return None
''',
    "core/views.py": '''"""The shop's pages and API."""
from django.contrib.auth import authenticate, login
from django.http import JsonResponse


def login_view(request):
    user = authenticate(request, username=request.POST["email"], password=request.POST["password"])
    if user is None:
        return JsonResponse({"error": "invalid credentials"}, status=401)
    login(request, user)
    return JsonResponse({"ok": True})


def orders(request):
    return JsonResponse({"orders": []})
''',
    "core/migrations/0002_failed_request.py": """from django.db import migrations, models


class Migration(migrations.Migration):
    operations = [
        migrations.CreateModel(name="FailedRequest", fields=[("error", models.TextField())]),
    ]
""",
}

APPS = {"express": EXPRESS_APP, "rails": RAILS_APP, "flask": FLASK_APP, "django": DJANGO_APP}
