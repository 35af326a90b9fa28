"""Per-language import resolution: one small module per language family, each resolving like the language does.

``IMPORTERS`` maps a family (``FAMILIES`` maps languages to families) to a function
``(path, text, project) → (files, external name)`` per import. The rules of each language — package roots, index
files, path aliases, autoload roots, module paths — are in its module's docstring and tables.
"""

from collections.abc import Callable, Iterator

from codeqa.explore.importers import go, javascript, jvm, php, python, ruby
from codeqa.explore.importers.project import FAMILIES, Project, Resolution

Importer = Callable[[str, str, Project], Iterator[Resolution]]

IMPORTERS: dict[str, Importer] = {
    "python": python.imports,
    "js": javascript.imports,
    "go": go.imports,
    "jvm": jvm.imports,
    "ruby": ruby.imports,
    "php": php.imports,
}

__all__ = ["FAMILIES", "IMPORTERS", "Importer", "Project", "Resolution"]
