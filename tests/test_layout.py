"""The layout holds: imports point only downward, no package reaches into another's underscore names, and the
module-level import graph has no circle (the design card: dataflow -> stages -> kg/rag -> registry; device ->
registry; stages never import the runtime or the simulator; the robot side never imports the planner)."""

from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
PACKAGES = ("dataflow", "stages", "kg", "rag", "device", "registry")
MAY_IMPORT = {
    "dataflow": set(PACKAGES),
    "stages": {"stages", "kg", "rag", "registry"},
    "kg": {"kg", "registry"},
    "rag": {"rag", "kg", "registry"},
    "device": {"device", "registry"},
    "registry": {"registry"},
}


def _modules() -> dict[str, Path]:
    out = {}
    for package in PACKAGES:
        for path in (ROOT / package).rglob("*.py"):
            parts = path.relative_to(ROOT).with_suffix("").parts
            out[".".join(parts[:-1] if parts[-1] == "__init__" else parts)] = path
    return out


def _type_checking_only(tree: ast.Module) -> set[int]:
    """ids of the import nodes under `if TYPE_CHECKING:` (annotations only: never imported at run time)."""
    out: set[int] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.If) and getattr(node.test, "id", getattr(node.test, "attr", None)) == "TYPE_CHECKING":
            out |= {id(child) for stmt in node.body for child in ast.walk(stmt)}
    return out


def _imports(path: Path, top_level_only: bool = False) -> list[tuple[str, list[str], int]]:
    """(module, imported names, line) of every project import in the file, lazy ones included unless
    `top_level_only`; imports for type checking only are left out."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    skip = _type_checking_only(tree)
    nodes = [n for n in (tree.body if top_level_only else ast.walk(tree)) if id(n) not in skip]
    found = []
    for node in nodes:
        if isinstance(node, ast.ImportFrom) and node.module and node.level == 0 and node.module.split(".")[0] in PACKAGES:
            found.append((node.module, [a.name for a in node.names], node.lineno))
        elif isinstance(node, ast.Import):
            found += [(a.name, [], node.lineno) for a in node.names if a.name.split(".")[0] in PACKAGES]
    return found


def test_imports_point_only_downward():
    bad = []
    for module, path in _modules().items():
        package = module.split(".")[0]
        for target, _, line in _imports(path, top_level_only=False):
            if target.split(".")[0] not in MAY_IMPORT[package]:
                bad.append(f"{path.relative_to(ROOT)}:{line} imports {target}")
    assert not bad, "\n".join(bad)


def _package_of(module: str, modules: dict[str, Path]) -> str:
    """The package a module belongs to: a subpackage (dataflow.cli) counts as a package of its own."""
    parent = module.rsplit(".", 1)[0] if "." in module else module
    return module if modules[module].name == "__init__.py" else parent


def test_no_package_imports_another_packages_underscore_names():
    bad = []
    modules = _modules()
    for module, path in modules.items():
        package = _package_of(module, modules)
        for target, names, line in _imports(path, top_level_only=False):
            owner = next((c for c in (target, target.rsplit(".", 1)[0]) if c in modules), target)
            if owner in modules and _package_of(owner, modules) == package:
                continue
            private = [p for p in target.split(".")[1:] if p.startswith("_")] + [n for n in names if n.startswith("_")]
            if private:
                bad.append(f"{path.relative_to(ROOT)}:{line} imports {target}: {', '.join(private)}")
    assert not bad, "\n".join(bad)


def test_the_module_import_graph_has_no_circle():
    """Lazy imports inside functions count too: a circle through one is still two modules that need each other."""
    modules = _modules()
    graph: dict[str, set[str]] = {}
    for module, path in modules.items():
        edges = set()
        for target, names, _ in _imports(path):
            for candidate in [f"{target}.{n}" for n in names] + [target]:
                if candidate in modules and candidate != module:
                    edges.add(candidate)
                    break
        graph[module] = edges
    state: dict[str, int] = {}
    stack: list[str] = []

    def visit(node: str) -> list[str] | None:
        state[node] = 1
        stack.append(node)
        for nxt in sorted(graph[node]):
            if state.get(nxt) == 1:
                return stack[stack.index(nxt):] + [nxt]
            if nxt not in state:
                found = visit(nxt)
                if found:
                    return found
        stack.pop()
        state[node] = 2
        return None

    for module in sorted(graph):
        if module not in state:
            circle = visit(module)
            assert circle is None, " -> ".join(circle)


DATAFLOW_JOBS = {
    "dataflow": {"dataflow"},
    "dataflow.runtime": {"dataflow", "dataflow.runtime"},
    "dataflow.workbench": {"dataflow", "dataflow.workbench"},
    "dataflow.cli": {"dataflow", "dataflow.runtime", "dataflow.workbench", "dataflow.cli"},
}
"""Inside dataflow: the core (driver, rows, sessions, clients) serves every job; the runtime and the workbench do
not import each other; the command line may import everything and nothing imports it."""


def test_dataflow_jobs_import_only_the_core_and_themselves():
    modules = _modules()
    bad = []
    for module, path in modules.items():
        if not module.startswith("dataflow"):
            continue
        job = next((j for j in DATAFLOW_JOBS if j != "dataflow" and (module == j or module.startswith(j + "."))), "dataflow")
        for target, _, line in _imports(path):
            if not target.startswith("dataflow"):
                continue
            owner = next((j for j in DATAFLOW_JOBS if j != "dataflow" and (target == j or target.startswith(j + "."))), "dataflow")
            if owner not in DATAFLOW_JOBS[job]:
                bad.append(f"{path.relative_to(ROOT)}:{line} ({job}) imports {target} ({owner})")
    assert not bad, "\n".join(bad)


MODULE_MAX_LINES = 450
FUNCTION_MAX_LINES = 70


def test_modules_and_functions_stay_small_enough_to_read():
    """A newcomer reads a module in a sitting and a function on one screen (issue 15: ~400 and ~60 lines)."""
    long_modules, long_functions = [], []
    for module, path in _modules().items():
        text = path.read_text(encoding="utf-8")
        if text.count("\n") > MODULE_MAX_LINES:
            long_modules.append(f"{path.relative_to(ROOT)}: {text.count(chr(10))} lines")
        for node in ast.walk(ast.parse(text)):
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)) and node.end_lineno - node.lineno + 1 > FUNCTION_MAX_LINES:
                long_functions.append(f"{path.relative_to(ROOT)}:{node.lineno} {node.name}: {node.end_lineno - node.lineno + 1} lines")
    assert not long_modules and not long_functions, "\n".join(long_modules + long_functions)
