"""PHP and Ruby names in the symbol graph resolved through imports and scopes (#35): a call links to the definition
its receiver, its file's ``use`` imports or Rails' autoloading mean, not to every namesake, and never to a data file.
Built by the real indexer over real git repositories (a small Laravel-shaped app and a small Rails-shaped app)."""

from __future__ import annotations

from pathlib import Path

import pytest

from codeqa.chunk.resolve import name_scopes, resolve_imports
from codeqa.chunk.tags import tag_text
from codeqa.config import Settings
from codeqa.index import Index
from tests.conftest import git, init_repo, write_files
from tests.helpers import links

# method bodies long enough for each method to be a chunk of its own (a small class is one chunk, named by the class)
PHP_BODY = "".join(
    f"        $step{i} = $this->amounts['line_{i}'] * $this->rates['rate_{i}'] + {i};\n" for i in range(16)
)
RUBY_BODY = "".join(f"    value_{i} = entries.where(kind: 'line_{i}').sum(:amount_in_cents) + {i}\n" for i in range(16))


def php_class(namespace: str, header: str, methods: dict[str, str]) -> str:
    """A PHP class file whose methods each end with ``methods[name]``."""
    bodies = "\n".join(f"    public function {name}()\n    {{\n{PHP_BODY}        {last}\n    }}\n"
                       for name, last in methods.items())  # fmt: skip
    return f"<?php\n\nnamespace {namespace};\n\n{header}\n{{\n{bodies}}}\n"


def ruby_class(header: str, methods: dict[str, str]) -> str:
    """A Ruby class or module whose methods each end with ``methods[name]``."""
    bodies = "\n".join(f"  def {name}\n{RUBY_BODY}    {last}\n  end\n" for name, last in methods.items())
    return f"{header}\n{bodies}end\n"


WORKFLOW = "name: ci\non: push\njobs:\n  test:\n    runs-on: ubuntu-latest\n    env:\n      APP_ENV: testing\n"
LARAVEL: dict[str, str] = {
    "composer.json": '{"autoload": {"psr-4": {"App\\\\": "app/"}, "files": ["app/helpers.php"]}}\n',
    ".github/workflows/ci.yml": WORKFLOW,
    # a global helper, and a method of the same name on a model
    "app/helpers.php": "<?php\n\nfunction format_money($cents)\n{\n    return number_format($cents / 100, 2);\n}\n",
    "app/Models/Invoice.php": php_class(
        "App\\Models", "class Invoice", {"total": "return $step0;", "format_money": "return 'EUR';"}
    ),
    # a namesake class with the same method in another namespace
    "app/Legacy/Invoice.php": php_class("App\\Legacy", "class Invoice", {"total": "return -1;", "paid": "return 0;"}),
    # a `use` alias; env() is the framework's, not the workflow's `env:` key
    "app/Services/Billing.php": "<?php\n\nnamespace App\\Services;\n\nuse App\\Models\\Invoice as Bill;\n\n"
    "class Billing\n{\n    public function charge(Bill $bill)\n    {\n"
    "        return format_money($bill->total()) . env('APP_ENV');\n    }\n}\n",
    # $this->m() reaches the parent class (same namespace, no `use`), not a namesake elsewhere
    "app/Http/Controllers/Controller.php": php_class(
        "App\\Http\\Controllers", "abstract class Controller", {"authorizeUser": "return true;", "respond": "return 1;"}
    ),
    "app/Policies/Gate.php": php_class(
        "App\\Policies", "class Gate", {"authorizeUser": "return false;", "deny": "return 0;"}
    ),
    "app/Http/Controllers/InvoiceController.php": "<?php\n\nnamespace App\\Http\\Controllers;\n\n"
    "class InvoiceController extends Controller\n{\n    public function show()\n    {\n"
    "        $this->authorizeUser();\n        return 'ok';\n    }\n}\n",
}
RAILS: dict[str, str] = {
    "Gemfile": "source 'https://rubygems.org'\ngem 'rails'\n",
    "config/locales/en.yml": "en:\n  perform: Run\n  sync_later: Later\n",
    "app/models/application_record.rb": "class ApplicationRecord < ActiveRecord::Base\n  primary_abstract_class\nend\n",
    "app/models/concerns/syncable.rb": ruby_class("module Syncable", {"sync_later": ":queued", "synced?": "true"}),
    "app/models/account.rb": "class Account < ApplicationRecord\n  include Syncable\n\n"
    "  def balance_money\n    sync_later\n  end\nend\n",
    # Account::Syncer and a namesake Family::Syncer, both with perform
    "app/models/account/syncer.rb": ruby_class("class Account::Syncer", {"perform": "balance_money", "other": "nil"}),
    "app/models/family/syncer.rb": ruby_class("class Family::Syncer", {"perform": ":family", "other": "nil"}),
    "app/jobs/sync_job.rb": "class SyncJob\n  def perform_now(account)\n"
    "    Account::Syncer.new(account).perform\n  end\nend\n",
    # a receiverless call of a name only a module the controller does not include defines
    "app/controllers/application_controller.rb": "class ApplicationController < ActionController::Base\nend\n",
    "app/controllers/accounts_controller.rb": "class AccountsController < ApplicationController\n"
    "  def create\n    sync_later\n    head :ok\n  end\nend\n",
}


def callees(found: set[tuple[str, str]], caller: str) -> set[str]:
    """What the chunks of file ``caller`` link to in other files (a small file is one chunk)."""
    return {callee for source, callee in found if source.startswith(caller + ":") and not callee.startswith(caller)}


@pytest.fixture(scope="module")
def built(tmp_path_factory: pytest.TempPathFactory, models_dir: Path) -> dict[str, set[tuple[str, str]]]:
    home = tmp_path_factory.mktemp("home")
    settings = Settings(home=home, models_dir=models_dir)
    found = {}
    for name, files in (("laravel", LARAVEL), ("rails", RAILS)):
        root = init_repo(home / name, files)
        found[name] = links(Index.build(str(root), settings, name=name).files)
    return found


def test_a_global_function_links_to_the_helper_not_to_a_method_or_a_data_key(built: dict) -> None:
    found = callees(built["laravel"], "app/Services/Billing.php")
    assert "app/helpers.php:format_money" in found
    assert "app/Models/Invoice.php:Invoice.format_money" not in found  # a method, and format_money() has no receiver
    assert not any(c.startswith(".github/") for c in found)  # env() is Laravel's, not the workflow's `env:`
    assert not any(".php:" in source and ".yml:" in target for source, target in built["laravel"])


def test_a_use_alias_binds_the_class_it_renames_not_a_namesake(built: dict) -> None:
    found = callees(built["laravel"], "app/Services/Billing.php")
    assert "app/Models/Invoice.php:Invoice.total" in found
    assert not any(c.startswith("app/Legacy/") for c in found)


def test_this_reaches_the_parent_class_not_another_class_method(built: dict) -> None:
    found = callees(built["laravel"], "app/Http/Controllers/InvoiceController.php")
    assert "app/Http/Controllers/Controller.php:Controller.authorizeUser" in found
    assert not any(c.startswith("app/Policies/") for c in found)


def test_a_rails_constant_path_links_to_its_zeitwerk_file(built: dict) -> None:
    found = callees(built["rails"], "app/jobs/sync_job.rb")
    assert "app/models/account/syncer.rb:Account.Syncer.perform" in found
    assert not any(c.startswith("app/models/family/") for c in found)


def test_a_ruby_method_reaches_its_mixins_and_nothing_the_class_does_not_include(built: dict) -> None:
    assert "app/models/concerns/syncable.rb:Syncable.sync_later" in callees(built["rails"], "app/models/account.rb")
    controller = callees(built["rails"], "app/controllers/accounts_controller.rb")
    assert not any(c.startswith("app/models/concerns/") for c in controller)
    assert not any(target.startswith("config/") for _, target in built["rails"])


def test_php_use_statements_keep_aliases_and_groups_apart() -> None:
    """``use A\\B as C`` binds C (not B) to A\\B; ``use A\\{B, C as D}`` binds B and D."""
    text = (
        "<?php\nnamespace App\\Services;\nuse App\\Models\\Invoice as Bill;\n"
        "use App\\Models\\{Account, Card as Debit};\nclass Pay { function run(Bill $b) { return Debit::find(1); } }\n"
    )
    files = {
        "composer.json": '{"autoload": {"psr-4": {"App\\\\": "app/"}}}',
        "app/Models/Invoice.php": "<?php\nnamespace App\\Models;\nclass Invoice {}\n",
        "app/Models/Card.php": "<?php\nnamespace App\\Models;\nclass Card {}\n",
        "app/Models/Account.php": "<?php\nnamespace App\\Models;\nclass Account {}\n",
    }
    tags = [tag_text(path, "json" if path.endswith(".json") else "php", body) for path, body in files.items()]
    tags.append(tag_text("app/Services/Pay.php", "php", text))
    scope = name_scopes(tags, resolve_imports(tags))["app/Services/Pay.php"]
    assert scope.bound["Bill"] == {"app/Models/Invoice.php"} and "Invoice" not in scope.bound
    assert scope.bound["Debit"] == {"app/Models/Card.php"} and scope.bound["Account"] == {"app/Models/Account.php"}
    assert "Card" not in scope.bound
    assert resolve_imports(tags).files["app/Services/Pay.php"] == (
        "app/Models/Account.php", "app/Models/Card.php", "app/Models/Invoice.php")  # fmt: skip


def test_an_update_links_php_and_ruby_files_as_a_build_does(tmp_path: Path, settings: Settings) -> None:
    """Carried files keep their scopes (composer.json's autoload included): an update's graph equals a rebuild's."""
    root = init_repo(tmp_path / "app", {**LARAVEL, **RAILS})
    index = Index.build(str(root), settings, name="app")
    write_files(root, {"app/Policies/Gate.php": LARAVEL["app/Policies/Gate.php"] + "\n// edited\n"})
    git(root, "commit", "-qam", "edit")
    updated = index.update()
    assert updated.report is not None and updated.report.carried > 0
    rebuilt = Index.build(str(root), settings, name="again")
    assert links(updated.files) == links(rebuilt.files)
    found = callees(links(updated.files), "app/Services/Billing.php")
    assert any(c.startswith("app/helpers.php:") for c in found)
