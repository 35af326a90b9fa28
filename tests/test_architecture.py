"""The shape of the code: pipeline folders, no import cycles, Chroma only in the store, one handle on an index (only
``codeqa.index``, ``codeqa.store`` and ``codeqa.searchfiles`` open the store or its search files), no Streamlit in
the library.

Imports are read statically (``ast``), so these checks see every module, including ones no test imports.
"""

from __future__ import annotations

import ast
import subprocess
import sys
from collections import defaultdict
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
LIBRARY = ROOT / "codeqa"
UI_FILES = [ROOT / "app.py", *sorted((ROOT / "pages").glob("*.py")), *sorted((ROOT / "codeqa_ui").glob("*.py"))]
STAGES = ("source", "scan", "chunk", "embed", "index", "store", "searchfiles", "retrieve", "answer", "explore", "cli")
# what opens an index's store or files: codeqa.index (the Index handle and its writer), codeqa.store and
# codeqa.searchfiles themselves;
# the rest may name the types those hand out (Manifest, SearchFiles, ChunkTable, …)
STORE_INTERNALS = {
    "codeqa.store.chroma",
    "codeqa.store.chroma_files",
    "codeqa.store.layout",
    "codeqa.searchfiles.corpus",
}
STORE_OPENERS = {"Store", "chroma_files", "open_search_files", "rebuild_search_files", "forget_search_files",
                 "SearchFilesBuilder", "Generation", "Corpus", "collection_dir", "generation_dir",
                 "manifest_dir"}  # fmt: skip
MAX_LINES = 300
LONGER_WITH_REASON: dict[str, str] = {
    "codeqa/chunk/treesitter.py": "one algorithm (cAST split/merge over a syntax tree); splitting it hides the flow",
    "codeqa/store/chroma.py": "every Chroma call in one module, by design: the rest of codeqa never sees Chroma",
}


def module_name(path: Path) -> str:
    parts = path.relative_to(ROOT).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def imported_modules(path: Path) -> set[str]:
    """Modules ``path`` imports (``from a import b`` counts ``a.b`` when that is a module, else ``a``)."""
    tree = ast.parse(path.read_text(), filename=str(path))
    found: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            found.add(node.module)
            found.update(f"{node.module}.{alias.name}" for alias in node.names)
    return found


def library_modules() -> dict[str, Path]:
    return {module_name(path): path for path in sorted(LIBRARY.rglob("*.py"))}


def import_graph() -> dict[str, set[str]]:
    modules = library_modules()
    graph: dict[str, set[str]] = defaultdict(set)
    for name, path in modules.items():
        for target in imported_modules(path):
            if target in modules and target != name:
                graph[name].add(target)
    return graph


def cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """Strongly connected components with more than one module (Tarjan)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []

    def visit(node: str) -> None:
        index[node] = low[node] = len(index)
        stack.append(node)
        on_stack.add(node)
        for target in sorted(graph.get(node, ())):
            if target not in index:
                visit(target)
                low[node] = min(low[node], low[target])
            elif target in on_stack:
                low[node] = min(low[node], index[target])
        if low[node] == index[node]:
            component = []
            while True:
                member = stack.pop()
                on_stack.discard(member)
                component.append(member)
                if member == node:
                    break
            if len(component) > 1:
                found.append(sorted(component))

    for node in sorted(graph):
        if node not in index:
            visit(node)
    return found


def test_the_folder_listing_shows_the_pipeline():
    for stage in STAGES:
        assert (LIBRARY / stage).is_dir() or (LIBRARY / f"{stage}.py").is_file(), stage


def test_no_import_cycles_between_library_modules():
    graph = import_graph()
    package_faces = {name for name, path in library_modules().items() if path.name == "__init__.py"}
    # a package's __init__ re-exports its modules, and those import siblings through it: not a real cycle
    inner = {name: {t for t in targets if t not in package_faces} for name, targets in graph.items()}
    assert cycles(inner) == []


# Inside the answer stage data flows one way: rendering <- explanation <- llm <- answering (the entry).
ANSWER_LAYERS = ("codeqa.answer.rendering", "codeqa.answer.explanation", "codeqa.answer.llm")


def test_the_answer_stage_imports_only_downward():
    """Rendering knows nothing of what is explained; the explanation never calls a language model."""
    for name, targets in import_graph().items():
        layer = next((i for i, prefix in enumerate(ANSWER_LAYERS) if name.startswith(prefix)), None)
        if layer is None:
            continue
        above = [t for t in targets for prefix in ANSWER_LAYERS[layer + 1 :] if t.startswith(prefix)]
        assert above == [] and "codeqa.answer.answering" not in targets, (name, above)


# Inside the explanation, each part reads only the parts below it: reading code, then checked calls and the
# framework's constructs, then which sources are shown, then the flow told as steps, then the structured answer
# (``explain``, ``pool``), then what is said of it.
EXPLANATION_PARTS = (
    ("code",), ("calls", "constructs"), ("sources",), ("story",), ("explain", "pool"), ("said",)
)  # fmt: skip


def test_the_explanation_parts_import_only_downward():
    prefix = "codeqa.answer.explanation."

    def level(module: str) -> int | None:
        part = module.removeprefix(prefix).split(".")[0] if module.startswith(prefix) else None
        return next((n for n, parts in enumerate(EXPLANATION_PARTS) if part in parts), None)

    for name, targets in import_graph().items():
        if (mine := level(name)) is None:
            continue
        above = [t for t in targets if (theirs := level(t)) is not None and theirs > mine]
        assert above == [], (name, above)
    inside = [name for name in library_modules() if name.startswith(prefix)]
    assert len(inside) > 80 and [name for name in inside if level(name) is None] == []  # each is in a part


def test_a_cycle_is_detected_when_there_is_one():
    assert cycles({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == [["a", "b", "c"]]


def test_only_the_store_talks_to_chroma():
    users = {
        name
        for name, path in library_modules().items()
        if any(m.split(".")[0] == "chromadb" for m in imported_modules(path))
    }
    assert users == {"codeqa.store.chroma"}


def test_only_the_index_and_the_store_open_the_store_or_its_files():
    """One handle reads an index: everything else (retrieve, answer, explore, the service, the faces) takes an
    ``Index`` and never opens Chroma, the registry or the search files itself."""
    for path in [*LIBRARY.rglob("*.py"), *UI_FILES]:
        name = module_name(path) if path.is_relative_to(LIBRARY) else path.name
        if name.startswith(("codeqa.index", "codeqa.store", "codeqa.searchfiles")):
            continue
        imported = imported_modules(path)
        assert not imported & STORE_INTERNALS, (name, imported & STORE_INTERNALS)
        openers = {
            f"{module}.{opener}"
            for module in ("codeqa.store", "codeqa.searchfiles", "codeqa.searchfiles.files")
            for opener in STORE_OPENERS
        }
        assert not openers & imported, (name, openers & imported)


def test_nothing_in_the_library_imports_its_package_face():
    """``codeqa/__init__.py`` is for users; inside, each module imports what it uses from where it lives."""
    for name, path in library_modules().items():
        if name in ("codeqa", "codeqa.__main__"):
            continue
        assert "codeqa" not in imported_modules(path), f"{name} imports the package face"


BACKENDS_PACKAGE = LIBRARY / "answer" / "llm" / "backends"
BUILT_IN_BACKENDS = ("ollama", "openai", "embedded")


def backend_name_comparisons(path: Path) -> list[int]:
    """Lines of ``path`` comparing something with a backend's name (``== "embedded"``, ``in ("ollama", …)``)."""
    lines = []
    for node in ast.walk(ast.parse(path.read_text(), filename=str(path))):
        if isinstance(node, ast.Compare):
            operands = [node.left, *node.comparators]
            operands += [item for o in operands if isinstance(o, ast.Tuple | ast.List | ast.Set) for item in o.elts]
            if any(isinstance(o, ast.Constant) and o.value in BUILT_IN_BACKENDS for o in operands):
                lines.append(node.lineno)
    return lines


def test_only_the_backends_compare_backend_names():
    """Everything else reads a backend's traits from the registry (``codeqa/answer/llm/backends/registry.py``)."""
    outside = [path for path in [*LIBRARY.rglob("*.py"), *UI_FILES] if not path.is_relative_to(BACKENDS_PACKAGE)]
    found = {str(path.relative_to(ROOT)): lines for path in outside if (lines := backend_name_comparisons(path))}
    assert found == {}


def test_the_ui_never_imports_chromadb_or_private_library_modules():
    for path in UI_FILES:
        for module in imported_modules(path) - {"__future__", "__future__.annotations"}:
            assert module.split(".")[0] != "chromadb", (path, module)
            assert not any(part.startswith("_") for part in module.split(".")), (path, module)


def test_the_library_never_imports_streamlit():
    """Import every library module in a fresh interpreter, then look at what was loaded."""
    names = sorted(name for name in library_modules() if name != "codeqa.__main__")
    code = "import importlib, sys\n" + "".join(f"importlib.import_module({n!r})\n" for n in names)
    code += "print('streamlit' in sys.modules, 'chromadb' in sys.modules)"
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True, cwd=ROOT)
    streamlit_loaded, _ = result.stdout.split()
    assert streamlit_loaded == "False"
    for name, path in library_modules().items():
        assert "streamlit" not in {m.split(".")[0] for m in imported_modules(path)}, name


def test_modules_stay_small_or_say_why():
    for path in sorted(LIBRARY.rglob("*.py")):
        relative = path.relative_to(ROOT).as_posix()
        lines = len(path.read_text().splitlines())
        assert lines <= MAX_LINES or relative in LONGER_WITH_REASON, f"{relative} has {lines} lines"


def test_every_imported_third_party_package_is_declared():
    import tomllib

    declared = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]["dependencies"]
    names = {
        dependency.split(">")[0].split("=")[0].split("<")[0].split("[")[0].strip().lower() for dependency in declared
    }
    distribution_of = {
        "git": "gitpython",
        "stemmer": "pystemmer",
        "llama_cpp": "llama-cpp-python",
        "umap": "umap-learn",
        "markdown_it": "markdown-it-py",
    }  # import name → distribution, where they differ beyond "_" → "-"
    # extras imported lazily with an install hint: the embedded backend's, LightGBM for fitting the ranking, Jedi for
    # checking the symbol graph (`codeqa eval --answers --graph-check`)
    optional = {"llama-cpp-python", "lightgbm", "jedi"}
    stdlib = set(sys.stdlib_module_names)
    for path in [*LIBRARY.rglob("*.py"), *UI_FILES]:
        for module in imported_modules(path):
            top = module.split(".")[0]
            if top in stdlib or top in ("codeqa", "codeqa_ui", "__future__"):
                continue
            distribution = distribution_of.get(top.lower(), top.lower().replace("_", "-"))
            assert distribution in names or distribution in optional, f"{path.name} imports {top}, not declared"
