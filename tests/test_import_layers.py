"""Imports go one way (docs/ARCHITECTURE.md, "Layers"): no module of ``analyzer`` imports one of a
higher layer, and no modules import each other in a circle. Every import counts, the ones inside
functions and under ``TYPE_CHECKING`` too."""
import ast
from pathlib import Path

import pytest

from analyzer.layers import LAYERS, layer_of

PACKAGE = Path(__file__).parent.parent / "analyzer"


def module_files(root: Path) -> dict[str, tuple[Path, bool]]:
    """Dotted module name -> (its file, whether it is a package's __init__)."""
    out = {}
    for path in sorted(root.rglob("*.py")):
        parts = list(path.relative_to(root.parent).with_suffix("").parts)
        is_pkg = parts[-1] == "__init__"
        out[".".join(parts[:-1] if is_pkg else parts)] = (path, is_pkg)
    return out


def imports_of(module: str, source: str, is_pkg: bool, known) -> set[str]:
    """The modules of ``known`` that ``source`` (module ``module``) imports, anywhere in it."""
    found = set()
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Import):
            targets = [a.name for a in node.names]
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = module.split(".")[:None if is_pkg else -1]
                base = base[:len(base) - node.level + 1]
                base = ".".join(base + ([node.module] if node.module else []))
            else:
                base = node.module or ""
            targets = [f"{base}.{a.name}" if f"{base}.{a.name}" in known else base for a in node.names]
        else:
            continue
        for t in targets:
            while t not in known and "." in t:
                t = t.rsplit(".", 1)[0]
            if t in known and t != module:
                found.add(t)
    return found


def import_graph(root: Path) -> dict[str, set[str]]:
    files = module_files(root)
    return {m: imports_of(m, p.read_text(encoding="utf-8"), pkg, files) for m, (p, pkg) in files.items()}


def upward_imports(graph: dict[str, set[str]]) -> list[str]:
    """Every import of a module from one of a higher layer (a smaller index in LAYERS)."""
    return sorted(f"{a} -> {b}" for a, bs in graph.items() for b in bs if layer_of(b) < layer_of(a))


def circles(graph: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected components of more than one module (Tarjan)."""
    index, low, stack, on, out = {}, {}, [], set(), []

    def visit(v):
        index[v] = low[v] = len(index)
        stack.append(v)
        on.add(v)
        for w in graph.get(v, ()):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            comp = []
            while True:
                w = stack.pop()
                on.discard(w)
                comp.append(w)
                if w == v:
                    break
            if len(comp) > 1:
                out.append(sorted(comp))

    for v in sorted(graph):
        if v not in index:
            visit(v)
    return out


GRAPH = import_graph(PACKAGE)


def test_every_module_has_a_layer():
    assert [m for m in GRAPH if layer_of(m) is None] == []


def test_no_import_runs_upward():
    assert upward_imports(GRAPH) == []


def test_no_modules_import_each_other_in_a_circle():
    assert circles(GRAPH) == []


def test_an_upward_import_and_a_circle_are_found(tmp_path):
    """The check can fail: a synthetic tree where the run layer imports a study, and a study
    imports the module that imports it."""
    pkg = tmp_path / "analyzer"
    for d in ("run", "studies"):
        (pkg / d).mkdir(parents=True)
        (pkg / d / "__init__.py").write_text("")
    (pkg / "__init__.py").write_text("")
    (pkg / "run" / "records.py").write_text("def f():\n    from ..studies.simulate import g\n")
    (pkg / "studies" / "simulate.py").write_text("from ..run.records import f\n")
    graph = import_graph(pkg)
    assert graph["analyzer.run.records"] == {"analyzer.studies.simulate"}
    assert upward_imports(graph) == ["analyzer.run.records -> analyzer.studies.simulate"]
    assert circles(graph) == [["analyzer.run.records", "analyzer.studies.simulate"]]


@pytest.mark.parametrize("module, layer", [("analyzer.cli.play", 0), ("analyzer.published.ladder", 1),
                                           ("analyzer.studies.play.simulate", 5), ("analyzer.studies.report.study", 3),
                                           ("analyzer.engine.hand", LAYERS.index(("analyzer.engine",)))])
def test_a_module_takes_the_layer_of_its_package(module, layer):
    assert layer_of(module) == layer


def function_imports(root: Path) -> dict[str, int]:
    """Per module of ``root``, the import statements inside its functions."""
    counts: dict[str, int] = {}
    for path in sorted(root.rglob("*.py")):
        tree = ast.parse(path.read_text())
        inside = {id(n) for f in ast.walk(tree) if isinstance(f, (ast.FunctionDef, ast.AsyncFunctionDef))
                  for n in ast.walk(f) if isinstance(n, (ast.Import, ast.ImportFrom))}
        if inside:
            counts[".".join(path.relative_to(root).with_suffix("").parts)] = len(inside)
    return counts


# Imports left inside functions keep ``import analyzer`` and the command line's start-up light
# (docs/ARCHITECTURE.md, "Layers"): held here, so that a new one is a decision, not an accident.
FUNCTION_IMPORTS = {"__init__": 2, "cli.console": 4, "cli.play": 1, "engine.__init__": 1, "engine.cache_lock": 1,
                    "hands.handlog": 1, "plots.scores": 2, "run.backends": 1, "run.compiling": 4, "run.output": 2,
                    "studies.hints.study": 1, "tables.band_table": 1}


def test_the_imports_inside_functions_are_the_ones_named():
    assert function_imports(PACKAGE) == FUNCTION_IMPORTS


def test_no_test_loads_a_file_by_path():
    """A test imports what it tests by module name (a script's logic lives in the package, where
    a test can import it), never from a file path."""
    tests = Path(__file__).parent
    loaders = ("spec_from_file_location", "SourceFileLoader", "run_path(", "exec(open(")
    found = [f"{p.name}: {w}" for p in sorted(tests.glob("*.py")) if p.name != Path(__file__).name
             for w in loaders if w in p.read_text(encoding="utf-8")]
    assert found == []


MAX_LINES = 650


def long_modules(root: Path) -> dict[str, int]:
    """The modules of ``root`` over MAX_LINES lines, by path from the package's parent."""
    return {str(p.relative_to(root.parent)): n for p in sorted(root.rglob("*.py"))
            if (n := len(p.read_text(encoding="utf-8").splitlines())) > MAX_LINES}


def test_no_module_is_longer_than_the_limit_unless_architecture_says_why():
    """Short files: a module over MAX_LINES lines is named, with the reason, in
    docs/ARCHITECTURE.md's "Long modules" section."""
    text = (PACKAGE.parent / "docs" / "ARCHITECTURE.md").read_text(encoding="utf-8")
    section = text.partition("## Long modules")[2].partition("\n## ")[0]
    assert [m for m in long_modules(PACKAGE) if f"`{m}`" not in section] == []


def test_the_length_check_finds_a_long_module(tmp_path):
    pkg = tmp_path / "analyzer"
    pkg.mkdir()
    (pkg / "long.py").write_text("x = 1\n" * (MAX_LINES + 1))
    (pkg / "short.py").write_text("x = 1\n" * MAX_LINES)
    assert long_modules(pkg) == {"analyzer/long.py": MAX_LINES + 1}
