"""The layer table: path conventions first, framework signals in the text (from the framework data files) second."""

from __future__ import annotations

import pytest

from codeqa.chunk import layers
from codeqa.chunk.layers import LAYERS, content_signals, layer_for
from codeqa.frameworks.conventions import load_all, parse


@pytest.mark.parametrize(
    ("path", "text", "layer"),
    [
        # Rails
        ("app/controllers/users_controller.rb", "class UsersController < ApplicationController", "api"),
        ("config/routes.rb", "Rails.application.routes.draw do", "api"),
        ("app/models/user.rb", "class User < ApplicationRecord", "model"),
        ("app/views/users/index.html.erb", "<h1>Users</h1>", "view"),
        ("db/migrate/20240101_create_users.rb", "class CreateUsers < ActiveRecord::Migration[7.1]", "migration"),
        ("spec/models/user_spec.rb", "RSpec.describe User", "test"),
        ("app/services/billing/charge.rb", "class Charge", "service"),
        # Django
        ("shop/views.py", "from django.shortcuts import render", "api"),
        ("shop/urls.py", "urlpatterns = []", "api"),
        ("shop/models.py", "class Order(models.Model):", "model"),
        ("shop/migrations/0001_initial.py", "class Migration(migrations.Migration):", "migration"),
        ("shop/management/commands/import_orders.py", "class Command(BaseCommand):", "cli"),
        ("mysite/settings.py", "DEBUG = True", "config"),
        ("shop/templates/shop/order.html", "{% block content %}", "view"),
        ("shop/tests/test_views.py", "def test_index(client): ...", "test"),
        # Flask / FastAPI by content
        ("app/accounts.py", "@app.route('/login')\ndef login(): ...", "api"),
        ("app/orders.py", "router = APIRouter()\n@router.get('/orders')", "api"),
        ("app/db.py", "class Order(db.Model):", "model"),
        # Express / Next
        ("src/routes/users.js", "const router = express.Router();", "api"),
        ("server/app.js", "app.get('/health', (req, res) => res.send('ok'))", "api"),
        ("pages/api/login.ts", "export default function handler(req, res) {}", "api"),
        ("app/api/orders/route.ts", "export async function GET() {}", "api"),
        ("app/dashboard/page.tsx", "export default function Page() {}", "view"),
        ("src/components/Button.tsx", "export const Button = () => null", "view"),
        ("src/__tests__/button.test.tsx", "it('renders', () => {})", "test"),
        ("src/orders/orders.service.ts", "@Injectable()\nexport class OrdersService {}", "service"),
        # Spring
        ("src/main/java/com/shop/web/OrderController.java", "@RestController\nclass OrderController {}", "api"),
        ("src/main/java/com/shop/Orders.java", "@RestController\npublic class Orders {}", "api"),
        ("src/main/java/com/shop/service/OrderService.java", "@Service\nclass OrderService {}", "service"),
        ("src/main/java/com/shop/Order.java", "@Entity\npublic class Order {}", "model"),
        ("src/main/resources/application.yml", "server:\n  port: 8080", "config"),
        ("src/test/java/com/shop/OrderServiceTest.java", "@Test\nvoid works() {}", "test"),
        # Go
        ("internal/handlers/orders.go", "func List(w http.ResponseWriter, r *http.Request) {}", "api"),
        ("internal/server/server.go", "func (s *Server) ServeHTTP(w http.ResponseWriter, r *http.Request) {}", "api"),
        ("cmd/shop/main.go", "func main() {}", "cli"),
        ("internal/store/store_test.go", "func TestStore(t *testing.T) {}", "test"),
        ("pkg/money/money.go", "package money", "core"),
        # Phoenix / Elixir: told by what a module uses
        ("lib/chat_api_web/router.ex", "defmodule ChatApiWeb.Router do\n  use ChatApiWeb, :router\n", "api"),
        ("lib/chat_api_web/endpoint.ex", "defmodule ChatApiWeb.Endpoint do\n  use Phoenix.Endpoint", "api"),
        ("lib/chat_api_web/api_auth_plug.ex", "defmodule ChatApiWeb.APIAuthPlug do\n  import Plug.Conn\n", "api"),
        ("lib/chat_api_web/live/inbox.ex", "defmodule ChatApiWeb.InboxLive do\n  use ChatApiWeb, :live_view\n", "view"),
        ("lib/chat_api/users/user.ex", "defmodule ChatApi.Users.User do\n  use Ecto.Schema\n", "model"),
        ("priv/repo/add_users.exs", "defmodule ChatApi.Repo.AddUsers do\n  use Ecto.Migration\n", "migration"),
        # an Elixir app keeps all its code under lib/: that says nothing; a utils/ folder still does
        ("lib/chat_api/emails/customer_io.ex", "defmodule ChatApi.Emails.CustomerIO do\n  def track(x), do: x", "core"),
        ("lib/chat_api/utils/format.ex", "defmodule ChatApi.Utils.Format do\n  def format(x), do: x", "util"),
        ("lib/money_format.rb", "module MoneyFormat\nend", "util"),  # a Rails app's lib/ is its odds and ends
        # Everything else
        ("README.md", "# Shop", "docs"),
        ("docs/conf.py", "project = 'x'", "docs"),
        (".github/workflows/ci.yml", "on: push", "build"),
        ("pyproject.toml", "[project]", "build"),
        ("Makefile", "all:", "build"),
        ("Dockerfile", "FROM python:3.12", "config"),
        ("src/utils/strings.py", "def slug(): ...", "util"),
        ("lib/shop/pricing.rb", "module Pricing; end", "util"),
        ("shop/cli.py", "import argparse", "cli"),
        ("shop/__main__.py", "main()", "cli"),
        ("shop/core/engine.py", "class Engine: ...", "core"),
    ],
)
def test_layer_rules(path: str, text: str, layer: str) -> None:
    assert layer_for(path, text) == layer


@pytest.mark.parametrize(
    ("path", "layer"),
    [
        # feature folders: the file-name convention beats the folder it sits in
        ("src/app/routes/articles/articles.service.ts", "service"),
        ("src/app/routes/articles/articles.controller.ts", "api"),
        ("src/app/routes/articles/articles.model.ts", "model"),
        ("src/app/routes/articles/articles.router.ts", "api"),
        ("src/app/routes/articles/index.ts", "api"),
        ("src/features/cart/cart.component.tsx", "view"),
        ("src/features/cart/cart.dto.ts", "model"),
        ("src/features/cart/cart.utils.ts", "util"),
        ("src/components/orders/orders.service.ts", "service"),
        # Rails: views (whatever folder they are in), jobs, mailers, helpers, channels, JSON views
        ("app/views/settings/show.html.erb", "view"),
        ("app/views/config/index.html.haml", "view"),
        ("app/views/api/v1/accounts/show.json.jbuilder", "view"),
        ("app/views/user_mailer/welcome.text.erb", "view"),
        ("app/jobs/sync_account_job.rb", "service"),
        ("app/jobs/concerns/retryable.rb", "service"),
        ("app/mailers/user_mailer.rb", "service"),
        ("app/models/concerns/syncable.rb", "model"),
        ("app/helpers/accounts_helper.rb", "view"),
        ("app/channels/chat_channel.rb", "api"),
        ("app/controllers/api/v1/accounts_controller.rb", "api"),
        ("app/serializers/account_serializer.rb", "view"),
        ("lib/tasks/import.rake", "cli"),
        ("config/initializers/sidekiq.rb", "config"),
        ("config.ru", "config"),
        ("db/schema.rb", "migration"),
        # Laravel / PHP (PascalCase folders)
        ("app/Http/Controllers/PageController.php", "api"),
        ("app/Http/Middleware/Authenticate.php", "api"),
        ("app/Models/User.php", "model"),
        ("resources/views/pages/show.blade.php", "view"),
        ("app/Console/Commands/CleanupImages.php", "cli"),
        ("app/Jobs/SendEmail.php", "service"),
        ("lang/de/entities.php", "config"),  # translated strings, like Rails' config/locales
        ("src/i18n/fr.json", "config"),
        # Django: a views package and the conventional module names
        ("shop/views/orders.py", "api"),
        ("shop/serializers.py", "view"),
        ("shop/forms.py", "view"),
        ("shop/tasks.py", "service"),
        ("shop/templatetags/money.py", "view"),
        # Express / Next / Spring folders
        ("server/middleware/auth.js", "api"),
        ("server/controllers/orders.js", "api"),
        ("server/views/orders.ejs", "view"),
        ("app/settings/page.tsx", "view"),
        ("src/main/java/com/shop/repository/OrderRepository.java", "model"),
        ("src/main/java/com/shop/controller/Orders.java", "api"),
        ("src/main/resources/templates/orders.html", "view"),
        ("src/main/kotlin/shop/OrderService.kt", "service"),
    ],
)
def test_conventions_as_data(path: str, layer: str) -> None:
    assert layer_for(path, "") == layer


def test_content_decides_when_the_path_says_nothing() -> None:
    assert layer_for("app/lib/sync.rb", "class Sync < ApplicationJob\nend") == "service"
    assert layer_for("app/notify.rb", "class Notify < ApplicationMailer\nend") == "service"


def test_layers_are_known_and_text_is_optional() -> None:
    assert layer_for("src/thing.py", None) == "core"
    assert layer_for("tests/models/user.py") == "test"  # tests beat everything
    assert layer_for("lib/accounts.py", "@app.route('/x')") == "api"  # content beats lib/
    for path in ("a.py", "models/a.py", "x/y/z.md", "Dockerfile", "views/a.ejs"):
        assert layer_for(path, "") in LAYERS


def test_every_framework_text_signal_in_the_data_files_decides_its_layer() -> None:
    signals = content_signals()
    assert {layer for layer, _ in signals} >= {"migration", "api", "view", "model", "service", "cli", "test"}
    for layer, texts in signals:
        for text in texts:
            assert layer_for("src/part.unknown", f"x = 1\n{text}") == layer, text


def test_a_migration_signal_beats_a_model_signal_in_the_same_file() -> None:
    text = "class Migration(migrations.Migration):\n    model = models.Model"
    assert layer_for("shop/setup_orders.py", text) == "migration"


def test_adding_a_framework_is_one_data_file(monkeypatch: pytest.MonkeyPatch) -> None:
    """A new framework's ``[layers]`` signals reach ``layer_for`` with no change to ``chunk/layers.py``."""
    sinatra = parse('name = "Sinatra"\nlanguages = ["ruby"]\n[layers]\napi = ["< Sinatra::Base"]\n')
    assert layer_for("app/shop.rb", "class Shop < Sinatra::Base\nend") == "core"
    monkeypatch.setattr(layers, "load_all", lambda: (*load_all(), sinatra))
    content_signals.cache_clear()
    try:
        assert layer_for("app/shop.rb", "class Shop < Sinatra::Base\nend") == "api"
    finally:
        monkeypatch.undo()
        content_signals.cache_clear()
    assert layer_for("app/shop.rb", "class Shop < Sinatra::Base\nend") == "core"


@pytest.mark.parametrize(
    ("toml", "message"),
    [
        ('name = "X"\n[layers]\napis = ["@get("]\n', "X: unknown layer 'apis' in \\[layers\\]"),
        ('name = "X"\n[layers]\napi = "@get("\n', "X: \\[layers\\] api must be a list of non-empty strings"),
        ('name = "X"\n[layers]\napi = [""]\n', "X: \\[layers\\] api must be a list of non-empty strings"),
        ('name = "X"\nlayers = ["api"]\n', "X: \\[layers\\] must be a table"),
    ],
)
def test_a_bad_layers_table_names_the_framework_and_what_is_wrong(toml: str, message: str) -> None:
    with pytest.raises(ValueError, match=message):
        parse(toml)
