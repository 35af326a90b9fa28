"""Code: the whole file a citation points at, the cited lines highlighted, with its callers and callees."""

from codeqa_ui import screens

screens.code_page()
