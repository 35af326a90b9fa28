"""Map: every chunk of the repository as a point, regions named like places; similar code lands close together."""

from codeqa_ui import screens

screens.map_page()
