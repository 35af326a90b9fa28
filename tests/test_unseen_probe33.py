"""False and misleading sentences on two apps in no data set (probe33: mozilla/pontoon, a Django + React translation
platform, and crater-invoice/crater, a Laravel + Vue invoicing app):

- "`html_to_plain_text_with_links` … stores with `tag.insert_after("\\n")`": BeautifulSoup's ``insert_after`` puts a
  node into a parsed document in memory, as the DOM's ``insertBefore`` and ``insertAdjacentHTML`` do; nothing is
  stored (``effects.STORES``);
- "`getPreviousStatus` … ends in `return self::STATUS_SENT;`": the method returns ``STATUS_VIEWED``, ``STATUS_SENT``
  or ``STATUS_DRAFT`` by which test of an ``if … elseif … else`` holds; no one case is where it ends
  (``exits.one_of_many_cases``);
- "`PersonalAccessTokenAuthentication` … checks the password": ``check_password(unhashed_token, pat.token_hash)``
  is Django's hasher checking an API token against its stored hash; no password is checked;
- crater's ``_ide_helper.php`` (laravel-ide-helper's stubs of the framework's facades, 13,000 lines) filled four
  places of an answer on authentication with ``Auth.logout (+4)``: a generated file, not the app's code.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import pytest

from codeqa.answer.explanation.code.keylines import KeyLine
from codeqa.answer.explanation.sources.fold import collapse
from codeqa.answer.explanation.sources.missing import missing_words
from codeqa.answer.explanation.story.endings import outcome_of
from codeqa.chunk import chunk_file
from codeqa.chunk.resolve.calls import use_reaches
from codeqa.config import Settings
from codeqa.frameworks.conventions import load_all
from codeqa.records import Chunk
from codeqa.scan import scan_repository
from tests.conftest import write_files
from tests.test_chunk import source

# mozilla/pontoon pontoon/messaging/utils.py
PLAIN_TEXT = """from bs4 import BeautifulSoup


def html_to_plain_text_with_links(html):
    soup = BeautifulSoup(html, "html.parser")

    # Replace links with `link_text (url)`
    for tag in soup.find_all("a"):
        tag.replace_with(f"{tag.text} ({tag.get('href')})")

    # Add empty lines after <p>, </div>, and <br>. Not using the `separator`
    # parameter, as it would apply to other inline tags like <span>.
    for tag in soup.find_all(["p", "div", "br"]):
        tag.insert_after("\\n")

    text = soup.get_text()
    # Remove empty spaces at the beginning of lines
    text = "\\n".join([line.lstrip() for line in text.split("\\n")])

    return text
"""

# crater-invoice/crater app/Models/Invoice.php, lines 153-162 (the class shortened around it)
INVOICE = """<?php

namespace Crater\\Models;

use Illuminate\\Database\\Eloquent\\Model;

class Invoice extends Model
{
    public const STATUS_DRAFT = 'DRAFT';
    public const STATUS_SENT = 'SENT';
    public const STATUS_VIEWED = 'VIEWED';

    public function getPreviousStatus()
    {
        if ($this->viewed) {
            return self::STATUS_VIEWED;
        } elseif ($this->sent) {
            return self::STATUS_SENT;
        } else {
            return self::STATUS_DRAFT;
        }
    }

    public function getDueStatus()
    {
        if ($this->paid) {
            return self::STATUS_PAID;
        } else {
            return self::STATUS_DUE;
        }
    }
}
"""

# the same chain in Python (``if`` / ``elif`` / ``else``)
PY_CHAIN = '''def previous_status(invoice):
    """The status an invoice goes back to."""
    if invoice.viewed:
        return "VIEWED"
    elif invoice.sent:
        return "SENT"
    else:
        return "DRAFT"
'''


def _chunk(path: str, text: str, name: str):
    return next(c for c in chunk_file(source(path, text)) if name in c.text)


def test_a_node_put_into_a_parsed_document_is_no_store() -> None:
    chunk = _chunk("pontoon/messaging/utils.py", PLAIN_TEXT, "def html_to_plain_text_with_links")
    found = outcome_of(chunk, "html_to_plain_text_with_links")
    assert found is None or found.verb != "stores with", found
    assert found is not None and found.text == "return text", found


@pytest.mark.parametrize(("text", "name"), [(INVOICE, "Invoice.getPreviousStatus"), (PY_CHAIN, "previous_status")])
def test_no_case_of_a_chain_of_three_is_where_the_definition_ends(text: str, name: str) -> None:
    path = "app/Models/Invoice.php" if "<?php" in text else "app/status.py"
    chunk = _chunk(path, text, "revious")
    found = outcome_of(chunk, name)
    assert found is None or found.verb != "returns", found


def test_the_first_case_of_an_if_else_is_still_said() -> None:
    chunk = _chunk("app/Models/Invoice.php", INVOICE, "getDueStatus")
    found = outcome_of(chunk, "Invoice.getDueStatus")
    assert found is not None and found.text == "return self::STATUS_PAID;", found


def _said(line: str) -> list[str]:
    common = next(c for c in load_all() if c.common)
    return [c.describe(m) for c in common.constructs if (m := c.pattern.search(line))]


@pytest.mark.parametrize(
    "line",
    [
        "        if not check_password(unhashed_token, pat.token_hash):",  # pontoon's API token
        "        if (! Hash::check($request->api_token, $client->token_hash)) {",
        "    if not check_password(self.request.api_key, key.hashed):",
    ],
)
def test_a_password_hasher_checking_a_token_checks_no_password(line: str) -> None:
    assert "checks the password" not in _said(line)


def test_a_password_is_still_checked() -> None:
    assert "checks the password" in _said("        if not check_password(password, user.password):")
    assert "checks the password" in _said("        if (! $user || ! Hash::check($request->password, $user->pass)) {")


# the heads of crater's _ide_helper.php (laravel-ide-helper 2017) and of a newer _ide_helper_models.php
IDE_HELPER = """<?php
/**
 * A helper file for Laravel 5, to provide autocomplete information to your IDE
 * Generated for Laravel 5.4.6 on 2017-01-30.
 *
 * @author Barry vd. Heuvel <barryvdh@gmail.com>
 * @see https://github.com/barryvdh/laravel-ide-helper
 */

namespace {
    exit("This file should not be included, only analyzed by your IDE");

    class Auth extends \\Illuminate\\Support\\Facades\\Auth
    {
        public static function logout()
        {
            \\Illuminate\\Auth\\SessionGuard::logout();
        }
    }
}
"""
IDE_MODELS = """<?php

// @formatter:off
/**
 * A helper file for your Eloquent Models
 * Copy the phpDocs from this file to the correct Model,
 * And remove them from this file, to prevent double declarations.
 *
 * @author Barry vd. Heuvel <barryvdh@gmail.com>
 */


namespace App\\Models{
/**
 * @property int $id
 */
	class User extends \\Eloquent {}
}
"""
CONTROLLER = """<?php

namespace Crater\\Http\\Controllers;

/**
 * A helper file for the invoices' PDFs.
 */
class InvoicePdfController extends Controller
{
}
"""


def test_laravel_ide_helper_stubs_are_generated_files(tmp_path: Path, isolated_home: Path) -> None:
    write_files(
        tmp_path,
        {"_ide_helper.php": IDE_HELPER, "_ide_helper_models.php": IDE_MODELS, "app/Pdf.php": CONTROLLER},
    )
    result = scan_repository(tmp_path, Settings(home=isolated_home))
    assert {item.path: item.reason for item in result.skipped} == {
        "_ide_helper.php": "generated",
        "_ide_helper_models.php": "generated",
    }
    assert [f.path for f in result.files] == ["app/Pdf.php"]


# mozilla/pontoon pontoon/contributors/views.py, lines 95-100 and 186-205 (shortened)
CONTRIBUTOR_VIEWS = '''from django.contrib.auth.models import User
from django.http import JsonResponse

from pontoon.contributors import utils


def contributor(request, user):
    """Contributor profile."""
    is_own_profile = request.user.is_authenticated and request.user == user
    return render(request, "contributors/profile.html", {"contributor": user})


def update_contribution_timeline(request):
    try:
        contributor = User.objects.get(pk=request.GET["user"])
        contribution_type = request.GET["contribution_type"]
    except (User.DoesNotExist, ValueError) as e:
        return JsonResponse({"status": False, "message": f"Bad Request: {e}"}, status=400)

    contributions = utils.get_contribution_timeline_data(
        contributor, request.user, contribution_type
    )
    return contributions


def contributors_of(request):
    return [contributor, update_contribution_timeline]
'''


def test_a_local_variable_named_after_a_function_is_no_use_of_it() -> None:
    path = "pontoon/contributors/views.py"
    lines = CONTRIBUTOR_VIEWS.split("\n")
    argument = lines.index("        contributor, request.user, contribution_type") + 1
    listed = lines.index("    return [contributor, update_contribution_timeline]") + 1
    assert not use_reaches(
        path, CONTRIBUTOR_VIEWS, "contributor", lines[argument - 1], path, top_level=True, at=argument
    )
    assert use_reaches(path, CONTRIBUTOR_VIEWS, "contributor", lines[listed - 1], path, top_level=True, at=listed)


# crater-invoice/crater app/Http/Kernel.php, lines 57-92 (shortened)
KERNEL = """    protected $routeMiddleware = [
        'auth' => \\Crater\\Http\\Middleware\\Authenticate::class,
        'guest' => \\Crater\\Http\\Middleware\\RedirectIfAuthenticated::class,
        'customer-portal' => \\Crater\\Http\\Middleware\\CustomerPortalMiddleware::class,
    ];
"""


@dataclass
class _Seen:
    chunk: Chunk
    lines: list[KeyLine]


def test_a_source_citing_more_lines_of_the_same_code_is_no_repeat_of_it() -> None:
    """ "`Kernel` (`app/Http/Kernel.php:57-92`) defines a class (and 1 more like it: `app/Http/Kernel.php:8-92`)"."""
    lines = [
        KeyLine(58, "        'auth' => \\Crater\\Http\\Middleware\\Authenticate::class,"),
        KeyLine(63, "        'guest' => \\Crater\\Http\\Middleware\\RedirectIfAuthenticated::class,"),
    ]
    part = Chunk("app/Http/Kernel.php", "php", 57, 92, KERNEL, "Kernel", "class", "api")
    whole = Chunk("app/Http/Kernel.php", "php", 8, 92, KERNEL, "Kernel", "class", "api")
    kept, repeats = collapse([_Seen(part, lines), _Seen(whole, list(lines))])
    assert [seen.chunk for seen in kept] == [part] and repeats == {}
    other = Chunk("app/Http/ApiKernel.php", "php", 8, 40, KERNEL, "ApiKernel", "class", "api")
    kept, repeats = collapse([_Seen(part, lines), _Seen(other, list(lines))])
    assert [seen.chunk for seen in kept] == [part] and [seen.chunk for seen in repeats[0]] == [other]


# crater-invoice/crater app/Exceptions/Handler.php, lines 37-52
HANDLER = """    public function report(Throwable $exception)
    {
        parent::report($exception);
    }

    public function render($request, Throwable $exception)
    {
        return parent::render($request, $exception);
    }
"""


def test_a_word_whose_stem_is_a_keyword_is_never_said_not_found() -> None:
    """ "**Not found:** nothing in this index mentions “returns”": ``return`` is a keyword the index leaves out."""
    handler = Chunk("app/Exceptions/Handler.php", "php", 37, 52, HANDLER, "Handler", "class", "other")
    question = "What happens when the API returns a validation error to the Vue frontend?"
    assert "returns" not in missing_words(question, [handler])
    assert missing_words(question, [handler]) == ["API", "validation", "error", "Vue", "frontend"]
