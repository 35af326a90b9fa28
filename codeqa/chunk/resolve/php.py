"""PHP: ``use A\\B\\C;`` through the PSR-4 prefixes of ``composer.json`` (``"App\\\\": "app/"``).

A class the file uses without importing it (``new Mailer``, ``extends Controller``) lives in the file's own
namespace: it is looked up the same way. Without a matching prefix a ``use`` is matched against file paths from the
end; what is still not found is a vendor package (its first namespace segment, e.g. ``Illuminate``). ``require``
and ``include`` are relative to the file.
"""

from __future__ import annotations

from collections.abc import Iterator

from codeqa.chunk.resolve.project import RULES, Project, Resolution, join, parent, read_json
from codeqa.records import FileTags, ImportRef

_RULES = RULES["php"]
_EXTENSION = _RULES["extension"]
_CLASS_KINDS = frozenset({"class", "type", "ancestor", "called_class"})  # references naming a class
ALIAS = "* as "  # ImportRef.names: ``use A\\B as C`` keeps C as ``* as C`` after what it renames (``chunk.tags``)


def _prepare(project: Project) -> list[tuple[str, str]]:
    """(namespace prefix, folder) from every composer.json's PSR-4 autoload sections, longest prefix first."""
    prefixes = []
    for path in project.named(_RULES["manifest"]):
        data = read_json(project.text(path))
        for section in _RULES["sections"]:
            psr4 = (data.get(section) or {}).get("psr-4") or {}
            for prefix, folders in psr4.items() if isinstance(psr4, dict) else ():
                for folder in [folders] if isinstance(folders, str) else folders:
                    prefixes.append((prefix.strip("\\"), join(parent(path), str(folder)) or ""))
    return sorted(prefixes, key=lambda p: -len(p[0]))


def _psr4(name: str, project: Project) -> set[str] | None:
    """The file of class ``name`` under a PSR-4 prefix (None: no prefix claims the name)."""
    files = project.family_files("php")
    for prefix, folder in project.cached("php", _prepare):
        if name == prefix or name.startswith(prefix + "\\"):
            rest = name[len(prefix) :].strip("\\").replace("\\", "/")
            candidate = join(folder, rest + _EXTENSION)
            return {candidate} if candidate in files else set()
    return None


def resolve(name: str, project: Project) -> Resolution:
    name = name.lstrip("\\")
    found = _psr4(name, project)
    if found is not None:
        return found, None
    parts = name.split("\\")
    for start in range(len(parts) - 1):
        if hit := project.by_suffix("php", "/".join(parts[start:]), (_EXTENSION,)):
            return hit, None
    return set(), parts[0]


def classes(ref: ImportRef) -> list[str]:
    """The full names a ``use`` imports (``use A\\{B, C as D}`` → ``A\\B``, ``A\\C``; an alias is no class)."""
    named = [n for n in ref.names if not n.startswith(ALIAS)]
    return [f"{ref.target}\\{n}" for n in named] if named else [ref.target]


def aliases(ref: ImportRef) -> dict[str, str]:
    """Local name → full name for each class a ``use`` imports (``use A\\B as C``: C → ``A\\B``)."""
    found: dict[str, str] = {}
    last = ref.target if not any(not n.startswith(ALIAS) for n in ref.names) else ""
    if last:
        found[last.rpartition("\\")[2]] = last
    for name in ref.names:
        if name.startswith(ALIAS):
            if last:
                found.pop(last.rpartition("\\")[2], None)
                found[name.removeprefix(ALIAS)] = last
            continue
        last = f"{ref.target}\\{name}"
        found[name.rpartition("\\")[2]] = last
    return found


def imports(tags: FileTags, project: Project) -> Iterator[Resolution]:
    imported: set[str] = set()
    for ref in tags.imports:
        if ref.kind == "relative":
            hit = join(parent(tags.path), ref.target)
            yield ({hit} if hit in project.family_files("php") else set()), None
            continue
        imported.update(aliases(ref))
        for name in classes(ref):
            if "\\" in name:  # `use HasFactory;` inside a class body is a trait named by an earlier import
                yield resolve(name, project)
    if tags.namespace:
        used = {ref.name for ref in tags.references if ref.category in _CLASS_KINDS and "\\" not in ref.name}
        for name in sorted(used - imported):
            yield (_psr4(f"{tags.namespace}\\{name}", project) or set()) - {tags.path}, None
