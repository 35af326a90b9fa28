"""PHP: ``use A\\B\\C;`` through the PSR-4 prefixes of ``composer.json`` (``"App\\\\": "app/"``).

Without a matching prefix the namespace path is matched against file paths from the end; what is still not
found is a vendor package (its first namespace segment, e.g. ``Illuminate``).
"""

from __future__ import annotations

import re
from collections.abc import Iterator

from codeqa.explore.importers.project import Project, Resolution, join, parent, read_json

_USE = re.compile(r"^\s*use\s+(?:function\s+|const\s+)?\\?([A-Za-z_][\w\\]*)(?:\s+as\s+\w+)?\s*;", re.M)
_REQUIRE = re.compile(r"""\b(?:require|include)(?:_once)?\s*\(?\s*(?:__DIR__\s*\.\s*)?['"]([^'"]+\.php)['"]""")


def _prepare(project: Project) -> list[tuple[str, str]]:
    """(namespace prefix, folder) from every composer.json's PSR-4 autoload sections, longest prefix first."""
    prefixes = []
    for path in project.named("composer.json"):
        data = read_json(project.text(path))
        for section in ("autoload", "autoload-dev"):
            psr4 = (data.get(section) or {}).get("psr-4") or {}
            for prefix, folders in psr4.items() if isinstance(psr4, dict) else ():
                for folder in [folders] if isinstance(folders, str) else folders:
                    prefixes.append((prefix.strip("\\"), join(parent(path), str(folder)) or ""))
    return sorted(prefixes, key=lambda p: -len(p[0]))


def resolve(name: str, project: Project) -> Resolution:
    files = project.family_files("php")
    for prefix, folder in project.cached("php", _prepare):
        if name == prefix or name.startswith(prefix + "\\"):
            rest = name[len(prefix) :].strip("\\").replace("\\", "/")
            candidate = join(folder, rest + ".php")
            return ({candidate} if candidate in files else set()), None
    parts = name.split("\\")
    for start in range(len(parts) - 1):
        if hit := project.by_suffix("php", "/".join(parts[start:]), (".php",)):
            return hit, None
    return set(), parts[0]


def imports(path: str, text: str, project: Project) -> Iterator[Resolution]:
    for name in dict.fromkeys(_USE.findall(text)):
        if "\\" in name:  # `use HasFactory;` inside a class body is a trait named by an earlier import
            yield resolve(name, project)
    files = project.family_files("php")
    for target in _REQUIRE.findall(text):
        hit = join(parent(path), target)
        yield ({hit} if hit in files else set()), None
