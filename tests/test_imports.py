"""Imports resolve the way each language resolves them: per-language fixture repositories, never across languages."""

from __future__ import annotations

from codeqa.explore.imports import import_graph
from codeqa.languages import detect_language


def graph(files: dict[str, str]) -> tuple[dict[str, set[str]], dict[str, int]]:
    texts = {path: (detect_language(path) or "text", text) for path, text in files.items()}
    imports, external = import_graph(texts)
    return {path: set(targets) for path, targets in imports.items()}, dict(external)


def test_python_import_json_beside_a_json_tsx_is_the_standard_library():
    imports, external = graph(
        {
            "redash/query_runner/mongodb.py": "import json\nimport datetime\nfrom redash.utils import json_dumps\n",
            "redash/utils/__init__.py": "def json_dumps(x): ...\n",
            "redash/__init__.py": "",
            "viz-lib/src/lib/json.tsx": "export const json = 1;\n",
            "viz-lib/src/lib/datetime.tsx": "export const datetime = 1;\n",
            "viz-lib/src/index.ts": "import { json } from './lib/json';\n",
        }
    )
    assert imports["redash/query_runner/mongodb.py"] == {"redash/utils/__init__.py"}
    assert imports["viz-lib/src/index.ts"] == {"viz-lib/src/lib/json.tsx"}
    assert "json" not in external and "datetime" not in external  # standard library: not a dependency


def test_python_package_roots_relative_imports_and_externals():
    imports, external = graph(
        {
            "src/shop/__init__.py": "",
            "src/shop/models.py": "import sqlalchemy\nfrom sqlalchemy.orm import Session\n",
            "src/shop/api/__init__.py": "",
            "src/shop/api/views.py": "from ..models import Order\nfrom . import schemas\nimport shop.config as cfg\n",
            "src/shop/api/schemas.py": "from pydantic import BaseModel\n",
            "src/shop/config.py": "import os\n",
            "src/shop/utils.py": "from shop import (\n    models,\n    config,\n)\n",
            "tests/conftest.py": "from shop.models import Order\nimport helpers\n",
            "tests/helpers.py": "import requests\n",
            "tools/models.py": "x = 1\n",
        }
    )
    assert imports["src/shop/api/views.py"] == {"src/shop/models.py", "src/shop/api/schemas.py", "src/shop/config.py"}
    assert imports["src/shop/utils.py"] == {"src/shop/models.py", "src/shop/config.py"}
    assert imports["tests/conftest.py"] == {"src/shop/models.py", "tests/helpers.py"}  # a script folder is on the path
    assert external == {"sqlalchemy": 1, "pydantic": 1, "requests": 1}  # files using each package


def test_typescript_tsconfig_paths_base_url_index_files_and_workspace_packages():
    imports, external = graph(
        {
            "web/tsconfig.json": """{
                // comments and trailing commas, as tsconfig allows
                "compilerOptions": {"baseUrl": ".", "paths": {"@/*": ["src/*"], "#config": ["src/config/index.ts"],},},
            }""",
            "web/src/app.tsx": (
                "import { api } from '@/lib/api';\nimport config from '#config';\n"
                "import Button from 'components/Button';\n"
                "import { format } from './utils/format.js';\nimport React from 'react';\nimport fs from 'node:fs';\n"
                "import path from 'path';\nimport { Card } from '@acme/ui/card';\nimport '@/styles/app.css';\n"
                "const lazy = () => import('./pages/Home');\n"
            ),
            "web/src/lib/api/index.ts": "export const api = 1;\n",
            "web/src/config/index.ts": "export default {};\n",
            "web/components/Button.tsx": "export default 1;\n",
            "web/src/utils/format.ts": "export const format = 1;\n",
            "web/src/pages/Home.tsx": "import { useQuery } from '@tanstack/react-query';\n",
            "packages/ui/package.json": '{"name": "@acme/ui"}',
            "packages/ui/src/card.tsx": "export const Card = 1;\n",
        }
    )
    assert imports["web/src/app.tsx"] == {
        "web/src/lib/api/index.ts",
        "web/src/config/index.ts",
        "web/components/Button.tsx",
        "web/src/utils/format.ts",
        "web/src/pages/Home.tsx",
        "packages/ui/src/card.tsx",
    }
    assert external == {"react": 1, "@tanstack/react-query": 1}  # node built-ins and unindexed css are not packages


def test_rails_autoloading_by_constant_name_and_requires():
    imports, external = graph(
        {
            "app/models/user.rb": "class User < ApplicationRecord\n  include Syncable\n  has_many :accounts\nend\n",
            "app/models/account.rb": "class Account < ApplicationRecord\n  belongs_to :user\nend\n",
            "app/models/application_record.rb": "class ApplicationRecord < ActiveRecord::Base\nend\n",
            "app/models/concerns/syncable.rb": (
                "module Syncable\n  def sync!\n    SyncAccountJob.perform_later(self)\n  end\nend\n"
            ),
            "app/jobs/sync_account_job.rb": (
                "class SyncAccountJob < ApplicationJob\n  def perform(account)\n    Account.find(account.id)\n"
                "    AccountMailer.synced(account).deliver_later\n  end\nend\n"
            ),
            "app/jobs/application_job.rb": "class ApplicationJob < ActiveJob::Base\nend\n",
            "app/mailers/account_mailer.rb": "class AccountMailer < ApplicationMailer\nend\n",
            "app/mailers/application_mailer.rb": "class ApplicationMailer < ActionMailer::Base\nend\n",
            "app/controllers/admin/users_controller.rb": (
                "module Admin\n  class UsersController < BaseController\n    def index\n      @users = User.all\n"
                "      render json: Billing::Plan.default\n    end\n  end\nend\n"
            ),
            "app/controllers/admin/base_controller.rb": (
                "module Admin\n  class BaseController < ActionController::Base\n  end\nend\n"
            ),
            "app/models/billing/plan.rb": "module Billing\n  class Plan\n  end\nend\n",
            "lib/tasks/report.rb": "require 'csv'\nrequire 'prawn'\nrequire_relative 'helpers'\nrequire 'shop/pdf'\n",
            "lib/tasks/helpers.rb": "module Helpers\nend\n",
            "lib/shop/pdf.rb": "module Shop\n  class Pdf\n  end\nend\n",
            "test/test_helper.rb": "require 'minitest/autorun'\n",
            "test/models/user_test.rb": "require 'test_helper'\nclass UserTest < TestCase\n  User\nend\n",
        }
    )
    assert imports["app/models/user.rb"] == {
        "app/models/application_record.rb",
        "app/models/concerns/syncable.rb",
        "app/models/account.rb",  # has_many :accounts loads Account
    }
    assert imports["app/models/account.rb"] == {"app/models/application_record.rb", "app/models/user.rb"}
    assert imports["app/models/concerns/syncable.rb"] == {"app/jobs/sync_account_job.rb"}
    assert imports["app/jobs/sync_account_job.rb"] == {
        "app/jobs/application_job.rb",
        "app/models/account.rb",
        "app/mailers/account_mailer.rb",
    }
    assert imports["app/controllers/admin/users_controller.rb"] == {
        "app/controllers/admin/base_controller.rb",
        "app/models/user.rb",
        "app/models/billing/plan.rb",
    }
    assert imports["lib/tasks/report.rb"] == {"lib/tasks/helpers.rb", "lib/shop/pdf.rb"}
    assert imports["test/models/user_test.rb"] == {"test/test_helper.rb", "app/models/user.rb"}
    assert external == {"prawn": 1, "minitest": 1}  # csv is the standard library


def test_go_packages_through_the_module_path_of_go_mod():
    imports, external = graph(
        {
            "go.mod": "module github.com/acme/shop\n\ngo 1.22\n\nrequire github.com/gorilla/mux v1.8.0\n",
            "cmd/shop/main.go": (
                'package main\n\nimport (\n\t"fmt"\n\t"net/http"\n\n\t"github.com/acme/shop/internal/auth"\n'
                '\tstore "github.com/acme/shop/internal/store"\n\t"github.com/gorilla/mux"\n'
                '\t"golang.org/x/crypto/bcrypt"\n)\n'
            ),
            "internal/auth/auth.go": 'package auth\n\nimport "github.com/acme/shop/internal/store"\n',
            "internal/auth/token.go": "package auth\n",
            "internal/auth/auth_test.go": "package auth\n",
            "internal/store/store.go": "package store\n",
            "vendorless/auth/auth.go": "package auth\n",
        }
    )
    assert imports["cmd/shop/main.go"] == {"internal/auth/auth.go", "internal/auth/token.go", "internal/store/store.go"}
    assert imports["internal/auth/auth.go"] == {"internal/store/store.go"}
    assert external == {"github.com/gorilla/mux": 1, "golang.org/x/crypto": 1}


def test_java_and_kotlin_packages_wherever_the_files_live():
    imports, external = graph(
        {
            "app/src/main/java/com/acme/shop/web/OrderController.java": (
                "package com.acme.shop.web;\n\nimport com.acme.shop.model.Order;\nimport com.acme.shop.service.*;\n"
                "import static com.acme.shop.util.Money.format;\nimport java.util.List;\n"
                "import org.springframework.web.bind.annotation.RestController;\n"
            ),
            "app/src/main/java/com/acme/shop/model/Order.java": "package com.acme.shop.model;\npublic class Order {}\n",
            "app/src/main/java/com/acme/shop/service/OrderService.java": "package com.acme.shop.service;\n",
            "app/src/main/java/com/acme/shop/service/Billing.java": "package com.acme.shop.service;\n",
            "app/src/main/java/com/acme/shop/util/Money.java": "package com.acme.shop.util;\nclass Money {}\n",
            "app/src/main/kotlin/Extensions.kt": (
                "package com.acme.shop.ext\n\nimport com.acme.shop.model.Order\nimport kotlinx.coroutines.launch\n\n"
                "object Formats {}\nclass Currency\n"
            ),
            "app/src/main/kotlin/Report.kt": "package com.acme.shop.report\n\nimport com.acme.shop.ext.Currency\n",
        }
    )
    assert imports["app/src/main/java/com/acme/shop/web/OrderController.java"] == {
        "app/src/main/java/com/acme/shop/model/Order.java",
        "app/src/main/java/com/acme/shop/service/OrderService.java",
        "app/src/main/java/com/acme/shop/service/Billing.java",
        "app/src/main/java/com/acme/shop/util/Money.java",
    }
    assert imports["app/src/main/kotlin/Report.kt"] == {"app/src/main/kotlin/Extensions.kt"}  # not at a/b/C.kt
    assert external == {"org.springframework": 1}


def test_php_psr4_namespaces_from_composer_json():
    imports, external = graph(
        {
            "composer.json": '{"autoload": {"psr-4": {"BookStack\\\\": "app/"}}}',
            "app/Http/Controllers/PageController.php": (
                "<?php\nnamespace BookStack\\Http\\Controllers;\n\nuse BookStack\\Entities\\Models\\Page;\n"
                "use Illuminate\\Http\\Request;\n\nclass PageController {\n    use HasFactory;\n}\n"
            ),
            "app/Entities/Models/Page.php": "<?php\nnamespace BookStack\\Entities\\Models;\nclass Page {}\n",
        }
    )
    assert imports["app/Http/Controllers/PageController.php"] == {"app/Entities/Models/Page.php"}
    assert external == {"Illuminate": 1}


def test_never_across_languages():
    imports, external = graph(
        {
            "app/auth.py": "from app import session\nimport models\n",
            "app/session.ts": "export const session = 1;\n",
            "app/__init__.py": "",
            "models.rb": "class Models; end\n",
            "web/index.ts": "import { auth } from '../app/auth';\n",
        }
    )
    assert imports["app/auth.py"] == {"app/__init__.py"}  # `session` is a name in the package, never session.ts
    assert "web/index.ts" not in imports  # a TypeScript file cannot import Python
    assert external == {"models": 1}


def test_same_package_and_same_namespace_classes_need_no_import():
    imports, _ = graph(
        {
            "src/com/shop/Orders.java": "package com.shop;\nclass Orders { Invoice invoice = new Invoice(); }\n",
            "src/com/shop/Invoice.java": "package com.shop;\npublic class Invoice {}\n",
            "src/com/other/Invoice.java": "package com.other;\npublic class Invoice {}\n",
            "composer.json": '{"autoload": {"psr-4": {"App\\\\": "app/"}}}',
            "app/Http/Controllers/UserController.php": (
                "<?php\nnamespace App\\Http\\Controllers;\n\nclass UserController extends Controller {\n"
                "    public function show() { return new Presenter(); }\n}\n"
            ),
            "app/Http/Controllers/Controller.php": "<?php\nnamespace App\\Http\\Controllers;\nclass Controller {}\n",
            "app/Http/Controllers/Presenter.php": "<?php\nnamespace App\\Http\\Controllers;\nclass Presenter {}\n",
        }
    )
    assert imports["src/com/shop/Orders.java"] == {"src/com/shop/Invoice.java"}
    assert imports["app/Http/Controllers/UserController.php"] == {
        "app/Http/Controllers/Controller.php",
        "app/Http/Controllers/Presenter.php",
    }


def test_csharp_using_brings_the_types_of_a_namespace():
    imports, external = graph(
        {
            "Orders/OrderService.cs": (
                "using System;\nusing Shop.Billing;\nusing Newtonsoft.Json;\nnamespace Shop.Orders {\n"
                "  class OrderService { Invoice invoice; OrderId id; }\n}\n"
            ),
            "Orders/OrderId.cs": "namespace Shop.Orders { record OrderId(string Value); }\n",
            "Billing/Invoice.cs": "namespace Shop.Billing { public class Invoice {} }\n",
            "Billing/Receipt.cs": "namespace Shop.Billing { public class Receipt {} }\n",
        }
    )
    assert imports["Orders/OrderService.cs"] == {"Billing/Invoice.cs", "Orders/OrderId.cs"}  # not Receipt
    assert external == {"Newtonsoft": 1}


def test_c_includes_beside_the_file_then_in_include_folders():
    imports, _ = graph(
        {
            "src/store.c": '#include <stdio.h>\n#include "store.h"\n#include "util/strings.h"\n',
            "src/store.h": "int store_put(void);\n",
            "include/util/strings.h": "int length(const char *s);\n",
            "lib/vendor/store.h": "int other(void);\n",
        }
    )
    assert imports["src/store.c"] == {"src/store.h", "include/util/strings.h"}


def test_rust_modules_and_use_paths_from_the_crate_root():
    imports, external = graph(
        {
            "src/lib.rs": "mod store;\nmod config;\nuse crate::store::{key, Store};\nuse serde::Serialize;\n",
            "src/store.rs": "pub struct Store;\nuse super::config::Settings;\nuse std::fmt;\n",
            "src/store/key.rs": "pub struct Key;\n",
            "src/config/mod.rs": "pub struct Settings;\n",
        }
    )
    assert imports["src/lib.rs"] == {"src/store.rs", "src/config/mod.rs", "src/store/key.rs"}
    assert imports["src/store.rs"] == {"src/config/mod.rs"}
    assert external == {"serde": 1}


def test_lua_require_and_vue_script_imports():
    imports, external = graph(
        {
            "shop/init.lua": 'local util = require("shop.util")\nlocal json = require "cjson"\n',
            "shop/util.lua": "return {}\n",
            "tsconfig.json": '{"compilerOptions": {"paths": {"@/*": ["src/*"]}}}',
            "src/pages/Cart.vue": "<script setup lang='ts'>\nimport { total } from '@/lib/money'\n</script>\n",
            "src/lib/money.ts": "export const total = 1;\n",
        }
    )
    assert imports["shop/init.lua"] == {"shop/util.lua"}
    assert imports["src/pages/Cart.vue"] == {"src/lib/money.ts"}
    assert external == {"cjson": 1}


def test_haskell_modules_by_their_header_in_any_source_root():
    imports, external = graph(
        {
            "src/App/Main.hs": (
                "module App.Main (main) where\n\nimport App.Config\nimport qualified Data.Map as M\n"
                "import qualified App.Store.Ledger as L\nimport Data.List (sortOn)\nimport Data.List.Extra (split)\n"
                "import Script\n\nmain :: IO ()\nmain = print (M.empty :: M.Map Int Int)\n"
            ),
            "src/App/Config.hs": "module App.Config where\n\nport :: Int\nport = 8080\n",
            "lib/App/Store/Ledger.hs": "module App.Store.Ledger (load) where\nimport qualified Data.Map.Strict as M\n",
            "tools/Config.hs": "module Tools.Config where\n",
            # a path ending App/Config.hs is not what decides: the header is
            "app/App/Config.hs": "module Other.Config where\n",
            "scripts/Script.hs": "main = pure ()\n",  # no header: found by its path
            "web/src/Util.hs": "module Util where\n",
            "ui/src/Util.hs": "module Util where\n",
            "ui/app/Main.hs": "module Main where\nimport Util\n",
        }
    )
    assert imports["ui/app/Main.hs"] == {"ui/src/Util.hs"}  # two packages define Util: the importer's own wins
    assert imports["src/App/Main.hs"] == {"src/App/Config.hs", "lib/App/Store/Ledger.hs", "scripts/Script.hs"}
    assert external == {"Data.Map": 2, "Data.List.Extra": 1}  # base (Data.List) is not a dependency


def test_elixir_modules_by_defmodule_then_the_conventional_path():
    imports, external = graph(
        {
            "lib/shop/worker.ex": (
                "defmodule Shop.Worker do\n  alias Shop.{Config, Job}\n  use Shop.Queue.Producer\n  require Logger\n"
                "  use Ecto.Schema\n  import Ecto.Query\n\n  def run(job), do: Job.new(Config.get())\n"
                "  alias Shop.Legacy\n  def notify, do: Shop.Notifier.send()\nend\n"
            ),
            "lib/shop/config.ex": "defmodule Shop.Config do\n  def get, do: %{}\nend\n",
            "lib/models.ex": "defmodule Shop.Job do\n  def new(c), do: c\nend\n",  # not where the path says
            "lib/shop/queue/producer.ex": "defmodule Shop.Queue.Producer do\n  defmacro __using__(_), do: nil\nend\n",
            "lib/shop.ex": "defmodule Shop do\n  defmodule Notifier do\n    def send, do: :ok\n  end\nend\n",
            "lib/shop/job.ex": "# moved to lib/models.ex\n",
            "lib/shop/legacy.ex": "Shop.Codegen.define(:legacy)\n",  # no defmodule: the path
        }
    )
    assert imports["lib/shop/worker.ex"] == {
        "lib/shop/config.ex",
        "lib/models.ex",
        "lib/shop/queue/producer.ex",
        "lib/shop/legacy.ex",
        "lib/shop.ex",  # Shop.Notifier, used without a directive, is nested in `defmodule Shop`
    }
    assert external == {"Ecto": 1}  # Logger is Elixir's own


DJANGO_IN_A_FOLDER = {  # netbox's layout: manage.py in netbox/, every package's __init__.py empty
    "README.md": "# Inventory\n",
    "netbox/manage.py": "import os\n\nif __name__ == '__main__':\n    os.environ['X'] = 'netbox.settings'\n",
    "netbox/netbox/__init__.py": "",
    "netbox/netbox/settings.py": "DEBUG = False\n",
    "netbox/netbox/middleware.py": (
        "from django.conf import settings\n\nfrom utilities.api import is_api_request\n"
        "from utilities.error_handlers import handle_rest_api_exception\n\n\nclass CoreMiddleware:\n"
        "    def process_exception(self, request, exception):\n        if is_api_request(request):\n"
        "            return handle_rest_api_exception(request)\n"
    ),
    "netbox/utilities/__init__.py": "",
    "netbox/utilities/api.py": "def is_api_request(request):\n    return request.path.startswith('/api/')\n",
    "netbox/utilities/error_handlers.py": (
        "from django.http import JsonResponse\n\n\ndef handle_rest_api_exception(request):\n"
        "    return JsonResponse({'error': 'failed'}, status=500)\n"
    ),
}


def test_a_django_project_in_a_folder_imports_its_apps_from_beside_manage_py(tmp_path, settings):
    """Django runs from manage.py's folder, so ``from utilities.api import …`` in ``netbox/netbox/middleware.py`` is
    ``netbox/utilities/api.py``. The index never holds the empty ``__init__.py`` files that would say so (empty files
    are not indexed), so the resolver takes the folder of ``manage.py`` as a package root; and the call claim an
    answer makes through that import resolves."""
    from codeqa.index import Index
    from tests.conftest import init_repo
    from tests.helpers import build_index

    without_empty = {path: text for path, text in DJANGO_IN_A_FOLDER.items() if text}
    imports, external = graph(without_empty)
    assert imports["netbox/netbox/middleware.py"] == {"netbox/utilities/api.py", "netbox/utilities/error_handlers.py"}
    assert "utilities" not in external and external.get("django") == 2

    repo = init_repo(tmp_path / "inventory", dict(DJANGO_IN_A_FOLDER))
    build_index(str(repo), settings, name="inventory")
    index = Index.open("inventory", settings)
    assert "netbox/utilities/__init__.py" not in index.tags()  # empty: not indexed
    table, graph_ = index.files.table, index.files.graph
    middleware = [r for r in range(len(table.paths)) if table.paths[r] == "netbox/netbox/middleware.py"]
    called = {table.paths[c] for r in middleware for c in graph_.callees(r)}
    assert {"netbox/utilities/api.py", "netbox/utilities/error_handlers.py"} <= called, called


API_IN_A_FOLDER = {  # a FastAPI backend beside a frontend: every __init__.py empty, no manage.py, run from backend/
    "README.md": "# Shop\n",
    "frontend/src/main.ts": "export const app = 1;\n",
    "backend/app/__init__.py": "",
    "backend/app/main.py": "from app.api.routes import router\n\n\ndef create_app():\n    return router\n",
    "backend/app/api/__init__.py": "",
    "backend/app/api/routes.py": (
        "from app.services.orders import place_order\n\nrouter = []\n\n\ndef checkout(cart):\n"
        "    return place_order(cart)\n"
    ),
    "backend/app/services/__init__.py": "",
    "backend/app/services/orders.py": "def place_order(cart):\n    return {'total': sum(cart)}\n",
}


def test_empty_package_markers_the_index_skips_still_make_their_folders_packages(tmp_path, settings):
    """Empty files are not indexed, so without its ``__init__.py`` files ``backend/app`` looks like no package and
    ``from app.api.routes import router`` resolved nowhere. The index hands the skipped markers to the resolver (and
    the search files rebuilt from the store read them from the file state), so ``backend/`` is the package root."""
    from codeqa.index import Index
    from codeqa.index.mend import rebuild
    from codeqa.store import Store
    from tests.conftest import init_repo
    from tests.helpers import build_index

    repo = init_repo(tmp_path / "shop", dict(API_IN_A_FOLDER))
    build_index(str(repo), settings, name="shop")
    index = Index.open("shop", settings)
    assert "backend/app/__init__.py" not in index.tags()  # empty: not indexed
    expected = {
        "backend/app/main.py": ("backend/app/api/routes.py",),
        "backend/app/api/routes.py": ("backend/app/services/orders.py",),
    }
    assert {path: index.files.imports.files.get(path) for path in expected} == expected
    table, graph = index.files.table, index.files.graph
    routes = [r for r in range(len(table.paths)) if table.paths[r] == "backend/app/api/routes.py"]
    assert {table.paths[c] for r in routes for c in graph.callees(r)} == {"backend/app/services/orders.py"}
    rebuilt = rebuild(Store(settings), settings, index.manifest, index.embedder, None)  # from the store
    assert {path: rebuilt.imports.files.get(path) for path in expected} == expected
