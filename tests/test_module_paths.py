"""A question that names a module by its qualified name (``Commands.Register``, ``Devise::Models::Confirmable``,
``App\\Http\\Kernel``) names the file that module lives in, in whichever language the repository is written."""

from __future__ import annotations

import numpy as np
import pytest

from codeqa.config import Settings
from codeqa.index import Index
from codeqa.retrieve.file_signals import module_paths
from codeqa.retrieve.query import qualified_names
from tests.conftest import init_repo
from tests.helpers import build_index, retrieve_named

MODULES = {
    "hledger/Hledger/Cli/Commands/Register.hs": "module Hledger.Cli.Commands.Register (register) where\n\n"
    "register :: CliOpts -> Journal -> IO ()\nregister opts j = mapM_ putStrLn (postingsReport opts j)\n",
    "hledger/Hledger/Cli/Commands/Balance.hs": "module Hledger.Cli.Commands.Balance (balance) where\n\n"
    "balance :: CliOpts -> Journal -> IO ()\nbalance opts j = mapM_ putStrLn (balanceReport opts j)\n",
    "hledger/Hledger/Cli/CliOptions.hs": "module Hledger.Cli.CliOptions where\n\n"
    "data CliOpts = CliOpts { header :: Bool, layout :: String }\n",
    "doc/Commands/Register.md": "# register\n\nShows postings, one per line. Options: --no-header hides the header.\n",
    "lib/oban/team_client.ex": "defmodule Oban.TeamClient do\n  def connect(opts), do: {:ok, opts}\nend\n",
    "lib/mix/tasks/absinthe.schema.json.ex": "defmodule Mix.Tasks.Absinthe.Schema.Json do\n"
    "  def run(_), do: :ok\nend\n",
    "lib/devise/models/confirmable.rb": "module Devise\n  module Models\n    module Confirmable\n"
    "      def confirm\n        true\n      end\n    end\n  end\nend\n",
    "app/Http/Kernel.php": "<?php\nnamespace App\\Http;\n\nclass Kernel\n{\n    public function handle() {}\n}\n",
    "src/storage/Kernel.php": "<?php\nnamespace Storage;\n\nclass Kernel\n{\n    public function flush() {}\n}\n",
}


def test_qualified_names_in_many_languages():
    assert qualified_names("cli: Commands.Aregister: new option --no-header") == (("Commands", "Aregister"),)
    assert qualified_names("Fix Devise::Models::Confirmable when App\\Http\\Kernel boots") == (
        ("Devise", "Models", "Confirmable"),
        ("App", "Http", "Kernel"),
    )
    assert qualified_names("use tools.string.replace_dashes") == (("tools", "string", "replace_dashes"),)
    # two lower-case parts are an attribute, a module of the standard library or a host, not a file of the repository
    assert qualified_names("call obj.attr, os.path and example.com, see v1.2.3") == ()


@pytest.fixture(scope="module")
def modules(tmp_path_factory: pytest.TempPathFactory) -> Settings:
    base = tmp_path_factory.mktemp("module-paths")
    settings = Settings(home=base / "home")
    build_index(str(init_repo(base / "modules", MODULES)), settings, name="modules")
    return settings


def _named(settings: Settings, question: str) -> list[str]:
    files = Index.open("modules", settings).files
    values = module_paths(files, qualified_names(question))
    return sorted(files.files.paths[n] for n in np.flatnonzero(values > 0))


@pytest.mark.parametrize(
    ("question", "expected"),
    [
        ("cli: Commands.Register: new option --no-header", ["hledger/Hledger/Cli/Commands/Register.hs"]),
        ("Commands.Register.postingsReport: generalize CSV output", ["hledger/Hledger/Cli/Commands/Register.hs"]),
        ("Add a connection error to Oban.TeamClient", ["lib/oban/team_client.ex"]),
        ("Mix.Tasks.Absinthe.Schema.Json writes the schema", ["lib/mix/tasks/absinthe.schema.json.ex"]),
        ("Devise::Models::Confirmable#confirm twice", ["lib/devise/models/confirmable.rb"]),
        ("App\\Http\\Kernel::handle is slow", ["app/Http/Kernel.php"]),
    ],
)
def test_a_qualified_name_names_the_code_file_of_its_module(modules: Settings, question: str, expected: list[str]):
    assert _named(modules, question) == expected


def test_one_word_is_not_a_module_path_and_docs_are_not_modules(modules: Settings):
    assert _named(modules, "Kernel.handle is slow") == []  # one path word: a class and its method, not a path
    assert _named(modules, "CliOptions.header") == []
    assert "doc/Commands/Register.md" not in _named(modules, "Commands.Register")


def test_the_named_module_ranks_first(modules: Settings):
    result = retrieve_named("modules", "cli: Commands.Register: new option --no-header", modules)
    paths = [f.path for f in result.files]
    assert paths[0] == "hledger/Hledger/Cli/Commands/Register.hs", paths[:3]
