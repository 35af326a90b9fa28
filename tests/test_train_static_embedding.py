"""The embedding recipe's data rules: evaluation/dev projects never become training pairs; Haskell and Elixir pairs."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path

import pytest

SCRIPT = Path(__file__).resolve().parents[1] / "scripts" / "train_static_embedding.py"


@pytest.fixture(scope="module")
def recipe():
    spec = importlib.util.spec_from_file_location("train_static_embedding", SCRIPT)
    module = importlib.util.module_from_spec(spec)
    sys.modules["train_static_embedding"] = module
    spec.loader.exec_module(module)
    return module


@pytest.mark.parametrize(
    "name",
    [
        "ruby-railties",  # rails/rails, under a part's name
        "php-illuminate-support",  # laravel/framework, a prefix
        "golang-github-spf13-cobra-dev",  # owner-name inside a Debian Go name
        "golang-github-urfave-cli-v2-dev",  # a generic repo name, matched with its owner
        "php-league-flysystem",  # thephpleague/flysystem under Debian's owner
        "rust-serde-json",  # serde*, a source package
        "librust-tokio-macros-dev",  # tokio*, a binary crate package
        "@trpc/server",  # an npm scope
        "redux",
        "aiohttp",
        "nlohmann-json3",
        "libuv1",
        "ninja-build",  # a history dev repository
    ],
)
def test_excluded_packages(recipe, name):
    assert recipe.excluded_package(name)


@pytest.mark.parametrize(
    "name", ["golang-github-mitchellh-go-homedir-dev", "php-symfony-yaml", "rust-regex", "glib2.0"]
)
def test_other_packages_are_kept(recipe, name):
    assert recipe.excluded_package(name) is None


def test_vendored_copies_are_excluded_by_path_but_common_words_are_not(recipe):
    assert recipe.excluded_path("src/third/nlohmann/json.hpp") == "nlohmann"
    assert recipe.excluded_path("deps/libuv/src/unix/core.c") == "libuv"
    assert recipe.excluded_path("lib/cli/console.py") is None  # urfave/cli and symfony/console: words, not paths
    assert recipe.excluded_path("lua/pl/utils.lua") is None


def test_every_held_out_repository_is_in_the_exclusion_list(recipe):
    root = Path(__file__).resolve().parents[1]  # ../shared beside main; a worktree sits one level deeper
    found = [p for p in (root.parent / "shared", root.parent.parent / "shared") if (p / "eval").is_dir()]
    if not found:
        pytest.skip("../shared/eval is not beside this checkout")
    held_out = found[0] / "eval" / "HELD-OUT-REPOS.md"
    repos = {line[2:].strip().lower() for line in held_out.read_text().splitlines() if line.startswith("- ")}
    listed = {line.split()[0].lower() for line in recipe.EXCLUDED_FILE.read_text().splitlines() if "/" in line[:80]}
    assert {r for r in repos if "/" in r and " " not in r} <= listed


def test_haskell_haddock_pairs(recipe):
    text = (
        "module Data.Thing where\n\n"
        "-- | Count the elements that satisfy the predicate,\n"
        "-- stopping at the first failure.\n"
        "countWhile :: (a -> Bool) -> [a] -> Int\n"
        "countWhile p = length . takeWhile p\n\n"
        "helper :: Int\nhelper = 1\n"
    )
    [(doc, symbol, code)] = recipe.plain_definitions(text, "haskell")
    assert symbol == "countWhile"
    assert doc.startswith("Count the elements that satisfy the predicate")
    assert code.startswith("countWhile ::") and "helper" not in code


def test_elixir_doc_pairs(recipe):
    text = (
        "defmodule MyApp.Accounts do\n"
        '  @doc """\n  Returns the user with the given email, or nil when there is none.\n\n'
        '  ## Examples\n\n      iex> get_by_email("a@b")\n'
        '  """\n'
        "  @spec get_by_email(String.t()) :: User.t() | nil\n"
        "  def get_by_email(email) do\n    Repo.get_by(User, email: email)\n  end\n\n"
        "  def other, do: :ok\nend\n"
    )
    [(doc, symbol, code)] = recipe.plain_definitions(text, "elixir")
    assert symbol == "MyApp.Accounts.get_by_email"
    assert doc == "Returns the user with the given email, or nil when there is none."
    assert code.rstrip().endswith("end") and "def other" not in code and "iex>" not in code
