"""Sentences read on pixelfed (a Laravel + Vue app in no data set), on the real chunker's chunks of its code:

- a route file whose lines hold ``Route::redirect('media/list', '/i/admin/media')`` "handles the request"
  (``routes/web-admin.php``): a redirect declared by the router is a route, not a handler's response;
- a Vue component's piece that starts inside a commented-out block was documented by it: "``ComposeModal.vue`` …
  Its documentation says: “self.page = 'video-2'; } else { self.page = 2; }”".
"""

from __future__ import annotations

from codeqa.answer.explanation.code.outline import summary
from codeqa.answer.explanation.said.extractive import VERBS
from codeqa.answer.explanation.said.roles_said import role_phrase
from codeqa.chunk import chunk_file
from codeqa.records import Chunk, SourceFile

ROUTES = """<?php

Route::domain(config('pixelfed.domain.admin'))->prefix('i/admin')->group(function () {
    Route::redirect('/', '/dashboard');
    Route::get('dashboard', 'AdminController@home')->name('admin.home');
    Route::redirect('media/list', '/i/admin/media');
    Route::get('media/show/{id}', 'AdminController@mediaShow');
    Route::post('settings/pages/create', 'PageController@generatePage');
});
"""
CONTROLLER = """<?php

namespace App\\Http\\Controllers;

class PageController extends Controller
{
    public function delete(Request $request)
    {
        $page = Page::findOrFail($request->input('id'));
        $page->delete();
        return redirect(route('admin.settings.pages'));
    }
}
"""
# lines 1205-1226 of resources/assets/js/components/ComposeModal.vue, cut as the chunker cut them (at 1209)
COMPOSE = """\t\t\t\t\t\t// \tself.page = 'video-2';
\t\t\t\t\t\t// } else {
\t\t\t\t\t\t// \tself.page = 2;
\t\t\t\t\t\t// }
\t\t\t\t\t\tself.page = 3;
\t\t\t\t\t}, 300);
\t\t\t\t}).catch(function(e) {
\t\t\t\t\tswitch(e.response.status) {
\t\t\t\t\t\tcase 403:
\t\t\t\t\t\t\tself.uploading = false;
\t\t\t\t\t\t\tswal('Account size limit reached', 'Contact your admin for assistance.', 'error');
\t\t\t\t\t\tbreak;
\t\t\t\t\t}
\t\t\t\t});"""
NOTE = """\t// Scan markdown files listed in MARKDOWN_FILES and return an array of { url, source }
\tfunction scanMarkdown() {
\t\tconst items = [];
\t\treturn items;
\t}"""


def _chunk(path: str, language: str, text: str) -> Chunk:
    return chunk_file(SourceFile(path, language, text, len(text)))[0]


def test_a_route_file_s_redirect_is_a_route_not_a_response():
    routes = _chunk("routes/web-admin.php", "php", ROUTES)
    assert routes.layer == "api"  # under routes/: the layer that "handles the request" when its code shows it
    assert role_phrase(routes, VERBS, "is here") != VERBS["api"]
    controller = _chunk("app/Http/Controllers/PageController.php", "php", CONTROLLER)
    assert role_phrase(controller, VERBS, "is here") == VERBS["api"]  # `redirect(route(…))` answers the request


def test_commented_out_code_is_no_documentation():
    piece = Chunk("resources/assets/js/components/ComposeModal.vue", "vue", 1209, 1209 + COMPOSE.count("\n"),
                  COMPOSE, "", "other", "view")  # fmt: skip
    assert summary(piece) == ""
    note = Chunk("test/tools/check.js", "javascript", 158, 162, NOTE, "scanMarkdown", "function", "")
    assert summary(note) == "Scan markdown files listed in MARKDOWN_FILES and return an array of { url, source }"
