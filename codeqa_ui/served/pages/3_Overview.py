"""Overview: what a newcomer wants first — languages, layers, directories, big files, central symbols, imports."""

from codeqa_ui import screens

screens.overview_page()
