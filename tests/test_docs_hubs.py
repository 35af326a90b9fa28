"""#36's failure classes on small repositories: a doc page beside the module it describes, a package hub beside the
module that defines what it re-exports, and a test-support module that mentions every feature."""

from __future__ import annotations

from codeqa.config import Settings
from codeqa.index import Index
from codeqa.retrieve.file_signals import doc_bridge
from codeqa.retrieve.roles import Role, role_of, roles_asked_for
from tests.helpers import retrieve_named

DOCS_TOOL = {
    "docgen/__init__.py": '"""docgen: documentation pages from docstrings."""\n',
    "docgen/inherit.py": '''"""Members a class inherits."""


def inherited_members(cls):
    """The members of ``cls`` that come from its bases, each once."""
    seen = {}
    for base in cls.__mro__[1:]:
        for name, value in vars(base).items():
            if name not in seen and name not in vars(cls):
                seen[name] = value
    return seen
''',
    "docgen/themes/__init__.py": '''"""Themes."""


def theme_names():
    return ["plain"]
''',
    "docgen/render.py": '''"""Writing a page."""


def write_page(title, lines):
    """One page: the title underlined, then the lines."""
    return "\\n".join([title, "=" * len(title), *lines])
''',
    "docs/usage/inherited.rst": """Inherited members in the generated documentation
================================================

The generated documentation lists the members a class inherits from its bases. Documentation of inherited
members is switched on per class; each inherited member is documented once, under the class that documents it.

.. automodule:: docgen.inherit
""",
}
REPORT = (
    "The generated documentation lists inherited members twice when a class inherits a member from two bases. "
    "The documentation of inherited members should show each member once."
)

HUB = {
    "vault/__init__.py": '"""vault: sealed secrets."""\n\nfrom vault.sealing import seal_secret, unseal_secret\n\n'
    '__all__ = ["seal_secret", "unseal_secret"]\n',
    "vault/sealing.py": '''"""Sealing and unsealing a secret with a key."""

import hashlib


def seal_secret(secret, key):
    """Seal a secret: the key's digest mixed into every byte."""
    digest = hashlib.sha256(key).digest()
    return bytes(b ^ digest[i % len(digest)] for i, b in enumerate(secret))


def unseal_secret(sealed, key):
    """Unseal what seal_secret sealed with the same key."""
    return seal_secret(sealed, key)
''',
    "vault/storage.py": '''"""Where sealed values are kept."""


class Store:
    def __init__(self):
        self.items = {}

    def put(self, name, value):
        self.items[name] = value
''',
}

TEST_SUPPORT = {
    "shellrun/capture.py": '''"""Output capture: intercept what a command prints."""

import io
import sys


class OutputCapture:
    """Swap sys.stdout for a buffer while a command runs, then hand back what it printed."""

    def __enter__(self):
        self.saved, sys.stdout = sys.stdout, io.StringIO()
        return self

    def __exit__(self, *exc):
        self.text, sys.stdout = sys.stdout.getvalue(), self.saved
''',
    "shellrun/runner.py": '''"""Running a command."""

from shellrun.capture import OutputCapture


def run(command, args):
    with OutputCapture() as captured:
        command(*args)
    return captured.text
''',
    "shellrun/testing.py": '''"""Helpers for testing commands: run one, intercept what it prints, check the output."""

from shellrun.capture import OutputCapture
from shellrun.runner import run


class CommandTester:
    """Run a command, intercept what the command prints, and compare the printed output with what was expected."""

    def printed(self, command, *args):
        """What the command prints, intercepted."""
        return run(command, args)

    def assert_prints(self, command, expected, *args):
        """The command prints the expected output."""
        with OutputCapture() as captured:
            command(*args)
        assert captured.text == expected
''',
}


INDEXED_APPS = {"docs_tool": DOCS_TOOL, "hub": HUB, "support": TEST_SUPPORT}  # indexed once by apps_home (conftest)


def test_a_bug_report_about_generated_documentation_wants_the_code(apps_settings: Settings):
    assert Role.DOCS not in roles_asked_for(REPORT)  # "documentation" is what the tool makes, not a page to read
    assert Role.DOCS in roles_asked_for("where do the docs say how inherited members are shown?")
    assert Role.DOCS not in roles_asked_for("does every docstring get a summary line?")  # a docstring is code
    paths = [f.path for f in retrieve_named("docs_tool", REPORT, apps_settings).files]
    assert paths[0] == "docgen/inherit.py", paths[:3]
    assert paths.index("docs/usage/inherited.rst") > paths.index("docgen/render.py")  # after every code file
    asked = retrieve_named("docs_tool", "where do the docs say how inherited members are shown?", apps_settings)
    assert asked.files[0].path == "docs/usage/inherited.rst", [f.path for f in asked.files[:3]]


def test_a_doc_page_votes_for_the_module_its_directive_names(apps_settings: Settings):
    files = Index.open("docs_tool", apps_settings).files
    page = DOCS_TOOL["docs/usage/inherited.rst"]
    votes = doc_bridge(files, [page])
    paths = files.files.paths
    assert votes[paths.index("docgen/inherit.py")] > 0  # `.. automodule:: docgen.inherit` names the module
    assert votes[paths.index("docgen/render.py")] == 0
    roles = doc_bridge(files, ["See :func:`~docgen.render.write_page` and ``docgen/inherit.py``."])
    assert roles[paths.index("docgen/render.py")] > 0 and roles[paths.index("docgen/inherit.py")] > 0
    package = doc_bridge(files, [".. automodule:: docgen.themes"])  # a package's module is its __init__
    assert package[paths.index("docgen/themes/__init__.py")] > 0 and package.sum() == package.max()


def test_the_module_that_defines_the_names_beats_the_package_that_re_exports_them(apps_settings: Settings):
    for question in ("vault seal secret", "how does the vault seal a secret?"):  # the package's name, the words
        paths = [f.path for f in retrieve_named("hub", question, apps_settings).files]
        assert paths[0] == "vault/sealing.py", (question, paths[:3])
        assert paths.index("vault/__init__.py") == 1, paths[:3]  # right after the module it re-exports


def test_a_test_support_module_ranks_after_the_module_it_helps_test(apps_settings: Settings):
    assert role_of("shellrun/testing.py") is Role.TEST and role_of("src/_pytest/pytester.py") is Role.TEST
    assert role_of("pkg/testutils/checkers.py") is Role.TEST and role_of("pkg/contesting.py") is Role.SOURCE
    question = "where does it intercept what a command prints?"
    paths = [f.path for f in retrieve_named("support", question, apps_settings).files]
    assert paths[0] == "shellrun/capture.py", paths[:3]
    assert paths.index("shellrun/testing.py") > paths.index("shellrun/runner.py")
    asked = retrieve_named("support", "which test helper checks what a command prints?", apps_settings)
    assert asked.files[0].path == "shellrun/testing.py", [f.path for f in asked.files[:3]]
