"""The embedding recipe's data rules: evaluation/dev projects never become training pairs; Haskell and Elixir pairs."""

from __future__ import annotations

import importlib.util
import os
import sys
from pathlib import Path

import pytest

SCRIPT = Path(__file__).resolve().parents[1] / "scripts" / "train_static_embedding.py"
HELD_OUT = "HELD-OUT-REPOS.md"


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


def held_out_list() -> Path | None:
    """The project's list of held-out repositories: ``CODEQA_HELD_OUT_LIST``, else ``shared/eval`` beside the checkout
    (a worktree sits one level deeper)."""
    if os.environ.get("CODEQA_HELD_OUT_LIST"):
        return Path(os.environ["CODEQA_HELD_OUT_LIST"])
    root = Path(__file__).resolve().parents[1]
    found = [p / "eval" / HELD_OUT for p in (root.parent / "shared", root.parent.parent / "shared")]
    return next((path for path in found if path.is_file()), None)


def test_every_held_out_repository_is_in_the_exclusion_list(recipe):
    held_out = held_out_list()
    if held_out is None:
        pytest.skip(
            f"needs the project's {HELD_OUT} (the evaluation data, kept outside the repository): set "
            f"CODEQA_HELD_OUT_LIST=/path/to/{HELD_OUT}, or put shared/eval/ beside this checkout, to check that no "
            "held-out repository can become training data"
        )
    assert held_out.is_file(), f"CODEQA_HELD_OUT_LIST names {held_out}, which is not a file"
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
