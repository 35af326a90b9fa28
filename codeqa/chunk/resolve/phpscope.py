"""How one PHP file binds the names it uses (``scope.NameScope``), resolved as PHP and composer resolve them.

A class name means the class its ``use`` imports (an alias too: ``use A\\B as C``; grouped: ``use A\\{B, C}``), or
else the class of that name in the file's own namespace, found through the PSR-4 prefixes of ``composer.json``
(``php.resolve``); a vendor class (``Illuminate\\…``) binds to nothing. A function called without a receiver is
global: it reaches the files composer loads on every request (``autoload.files``, Laravel apps' ``helpers.php``) and
the files the file requires, nothing else (``env()`` is the framework's). A method (``$this->m()``, ``self::m()``,
``parent::m()``, ``$user->m()``, ``Post::m()``) reaches the classes the file imports or names and the ancestors
of its own classes (parents and traits, followed up the chain).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from codeqa.chunk.resolve.php import _RULES, aliases, resolve
from codeqa.chunk.resolve.project import Project, join, parent, read_json
from codeqa.chunk.resolve.scope import NameScope, ancestry, calls_by_receiver
from codeqa.records import FileTags

# the references that name a class (``php-tags.scm``)
CLASS_KINDS = frozenset({"class", "type", "ancestor", "called_class"})


def _loaded(project: Project) -> frozenset[str]:
    """The files composer includes on every request (``"autoload": {"files": [...]}``): global functions."""
    files = project.family_files("php")
    found: set[str] = set()
    for path in project.named(_RULES["manifest"]):
        data = read_json(project.text(path))
        for section in _RULES["sections"]:
            listed = (data.get(section) or {}).get("files") or []
            for name in listed if isinstance(listed, list) else ():
                hit = join(parent(path), str(name))
                if hit in files:
                    found.add(hit)
    return frozenset(found)


def classes(tags: FileTags, project: Project) -> dict[str, frozenset[str]]:
    """Each class name the file uses (its last segment) → the file defining it; an empty set for a vendor class.
    A name in an application namespace whose file is not found is left out (unknown, not external)."""
    files = project.family_files("php")
    full: dict[str, str] = {}
    for ref in tags.imports:
        if ref.kind != "relative":
            full.update(aliases(ref))
    for used in tags.references:
        name = used.name
        short = name.rpartition("\\")[2]
        if used.category not in CLASS_KINDS or short in full or name in ("self", "static", "parent"):
            continue
        head = name.partition("\\")[0]
        if name.startswith("\\"):
            full[short] = name.lstrip("\\")
        elif head in full and head != name:  # `Models\User` under `use App\Models;`
            full[short] = full[head] + name[len(head) :]
        else:
            full[short] = f"{tags.namespace}\\{name}" if tags.namespace else name
    # a namespace's segments (`Models` of `use App\Models\User;`, of the file's own namespace) name no class
    segments = {part for name in [*full.values(), tags.namespace] for part in name.split("\\")[:-1]}
    bound: dict[str, frozenset[str]] = dict.fromkeys(segments - set(full), frozenset())
    bound.update(dict.fromkeys(tags.namespace.split("\\")[-1:], frozenset()))
    for short, name in full.items():
        found, vendor = resolve(name, project)
        if found or vendor:
            bound[short] = frozenset(found & files) - {tags.path}
    return bound


def _parents(project: Project) -> dict[str, frozenset[str]]:
    """Every PHP file → the files of its classes' parents and traits (``extends``, ``use Trait;``)."""
    found: dict[str, frozenset[str]] = {}
    for path in project.family_files("php"):
        tags = project.tags[path]
        named = {ref.name.rpartition("\\")[2] for ref in tags.references if ref.category == "ancestor"}
        if named:
            bound = classes(tags, project)
            found[path] = frozenset(f for name in named for f in bound.get(name, ()))
    return found


def name_scope(tags: FileTags, project: Project, graph: Mapping[str, Sequence[str]]) -> NameScope:
    """``tags.path``'s name scope: classes bound by ``use`` and namespace, global functions in composer's loaded
    files and required files, methods by their receiver (``$this``/``self``/``parent``: the class's ancestors;
    ``Post::``: Post's file and its ancestors; another object: the classes the file uses, and the ancestors)."""
    files = project.family_files("php")
    bound = classes(tags, project)
    required = {hit for ref in tags.imports if ref.kind == "relative"
                and (hit := join(parent(tags.path), ref.target)) in files}  # fmt: skip
    modules = (project.cached("php-loaded", _loaded) | required) - {tags.path}
    parents = project.cached("php-parents", _parents)
    ancestors = ancestry(tags.path, parents)
    imported = frozenset(graph.get(tags.path, ())) | ancestors | modules

    own = frozenset(d.name for d in tags.definitions)

    def receiver(name: str) -> frozenset[str]:
        short = name.rpartition("\\")[2]
        if short not in bound:
            return imported
        if not bound[short] and short in own:  # `Invoice::make()` inside Invoice: its own class and ancestors
            return ancestors
        return bound[short].union(*(ancestry(path, parents) for path in bound[short]))

    where = {"by_self": ancestors, "by_parent": ancestors, "function": modules, "call": imported}
    return NameScope(imported, frozenset(modules), bound, own, calls_by_receiver(tags, where, receiver))
