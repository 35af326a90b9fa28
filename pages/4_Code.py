"""Code: the whole file a citation points at, the cited lines highlighted, with its callers and callees."""

from codeqa_ui import codeview
from codeqa_ui import components as ui

ui.page("Code", ":material/code:")
index, path, lines = codeview.request()
view = codeview.load(index, path, lines)
codeview.header(view, lines)
codeview.neighbours(view, lines)
codeview.code(view, lines)
