"""The names the project's prose gives to its code, and whether each still exists.

Read from README.md and docs/*.md (every `backticked` span) and from the docstrings of the
package and the scripts (every ``double-backticked`` span, every Sphinx role such as
:func:`name`, and every path such as scripts/x.py or analyzer/engine/hand.py written in them).
A span is checked when it looks like code, by its form:

- ``python -m MODULE``: the module can be found;
- a path (``analyzer/engine/hand.py``, ``scripts/bench.py``, ``engine/hand.py``, ``registry.py``):
  the file or folder exists (under the repository, or under analyzer/; a bare file name
  somewhere in analyzer/, scripts/ or tests/);
- ``analyzer.x.y``: a module, or a name a module defines;
- ``module.name`` or ``Class.name`` where the first part is a module or class of the package:
  the module (any of that name) or the class defines ``name``;
- an identifier with an underscore, a capital inside it or all capitals (``resolve_policy``,
  ``HandState``, ``E_PRIOR``): the code defines it (a function, class, module, constant,
  attribute, parameter or field) or holds it as a string (a column, a key, an option).

Anything else (prose words, command lines, numbers, rule ids, policy names) is not a code name
and is left alone. Names that are meant to be absent (an example of a typo) are not allowed:
write them without backticks.
"""
from __future__ import annotations

import ast
import re
from dataclasses import dataclass
from functools import cached_property
from importlib.util import find_spec
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PACKAGE = ROOT / "analyzer"
CODE_DIRS = (PACKAGE, ROOT / "scripts", ROOT / "tests")
SELF = ("doc_names.py", "test_doc_names.py")      # the check's own examples of stale names
PATH_ROOTS = ("analyzer/", "scripts/", "tests/", "docs/", "examples/", ".ci/")
FILE_SUFFIX = re.compile(r"\.(py|md|json|toml|npz|txt|cfg|csv|parquet|png|svg|html|pkl)$")
IDENT = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")
DOTTED = re.compile(r"[A-Za-z_][A-Za-z0-9_]*(\.[A-Za-z_][A-Za-z0-9_]*)+")
CALL = re.compile(r"([A-Za-z_][A-Za-z0-9_.]*)\(.*\)$")
PYTHON_M = re.compile(r"^python3? -m ([\w.]+)")
PATH_IN_TEXT = re.compile(r"(?<![\w/.-])((?:analyzer|scripts|tests|docs)/[\w/.-]*\w\.(?:py|md))\b")
ROLE = re.compile(r":(?:func|mod|class|meth|attr|data|obj|exc):`~?([^`]+)`")
PLACEHOLDERS = re.compile(r"\*|…|\.\.\.|<|>|\{|\}|\[|\]|(?<![A-Za-z0-9])(?:GAME|NAME|VARIANT|MODEL|FILE|CARDS?|KEY|"
                          r"VALUE|POLICY|SETTINGS|DIR|PRESET|MOVE|N|A|B|X|ADDRESS|OPTIONS|COUNT|SEED|PATH|SUIT)"
                          r"(?![A-Za-z0-9])")


def backticks(text: str) -> list[str]:
    """The single-backtick spans of Markdown ``text`` (code blocks left out)."""
    text = re.sub(r"```.*?```", "", text, flags=re.S)
    return [m.group(1) for m in re.finditer(r"(?<!`)`([^`\n]+)`(?!`)", text)]


def double_backticks(text: str) -> list[str]:
    """The ``double-backtick`` spans of a docstring."""
    return [m.group(1) for m in re.finditer(r"``([^`\n]+)``", text)]


def roles(text: str) -> list[str]:
    """The targets of a docstring's roles (:func:`x`, :mod:`.y` …), which always name code."""
    return [m.group(1) for m in ROLE.finditer(text)]


def stale_role(target: str) -> str | None:
    """Why a role's ``target`` names nothing (None: it names something): unlike a span, a
    dotted target whose first part is no module or class of the package is stale too."""
    target = target.lstrip(".")
    parts = target.split(".")
    if len(parts) == 1:
        return None if target in CODE.names else f"no name {target}"
    if parts[0] == "analyzer" or parts[-2] in CODE.classes or CODE.module_members(parts[-2]) is not None:
        return _dotted(target)
    if CODE.module_members(parts[0]) is not None or parts[0] in CODE.classes:
        return None if parts[-1] in CODE.names else f"no name {parts[-1]}"
    return f"no module or class {parts[-2]}"


@dataclass
class Code:
    """What the code defines, read once from analyzer/, scripts/ and tests/ (every .py)."""

    @cached_property
    def trees(self) -> dict[Path, ast.Module]:
        return {p: ast.parse(p.read_text(encoding="utf-8")) for d in CODE_DIRS for p in sorted(d.rglob("*.py"))
                if p.name not in SELF}

    @cached_property
    def names(self) -> set[str]:
        """Every name defined or bound anywhere, every attribute, every parameter and keyword,
        every module's name and the identifiers in every string constant but docstrings."""
        out = set()
        for path, tree in self.trees.items():
            out.add(path.stem)
            out.update(path.relative_to(ROOT).parts[:-1])
            prose = {id(n.value) for n in ast.walk(tree) if isinstance(n, ast.Expr)}    # docstrings: not code
            for node in ast.walk(tree):
                if id(node) in prose:
                    continue
                if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
                    out.add(node.name)
                elif isinstance(node, ast.Name):
                    out.add(node.id)
                elif isinstance(node, ast.Attribute):
                    out.add(node.attr)
                elif isinstance(node, ast.arg):
                    out.add(node.arg)
                elif isinstance(node, ast.keyword) and node.arg:
                    out.add(node.arg)
                elif isinstance(node, ast.alias):
                    out.add((node.asname or node.name).split(".")[-1])
                elif isinstance(node, ast.Constant) and isinstance(node.value, str):
                    out.update(IDENT.findall(node.value))
        return out

    @cached_property
    def modules(self) -> dict[str, set[str]]:
        """Dotted module name of the package -> the names it binds at its top."""
        out = {}
        for path, tree in self.trees.items():
            if PACKAGE in path.parents:
                parts = path.relative_to(ROOT).with_suffix("").parts
                name = ".".join(parts[:-1] if parts[-1] == "__init__" else parts)
                out[name] = set().union(*(_bound(node) for node in tree.body))
        return out

    @cached_property
    def classes(self) -> dict[str, set[str]]:
        """Class name (of the package) -> its methods, attributes and fields."""
        out: dict[str, set[str]] = {}
        for path, tree in self.trees.items():
            if PACKAGE not in path.parents:
                continue
            for node in ast.walk(tree):
                if isinstance(node, ast.ClassDef):
                    cls = out.setdefault(node.name, set())
                    for sub in ast.walk(node):
                        cls.update(_bound(sub))
                        if isinstance(sub, ast.Attribute) and isinstance(sub.ctx, ast.Store):
                            cls.add(sub.attr)
        return out

    @cached_property
    def attributes(self) -> set[str]:
        """Every name the code reads or writes as an attribute (``x.name``), and every class member."""
        out = {n.attr for tree in self.trees.values() for n in ast.walk(tree) if isinstance(n, ast.Attribute)}
        return out.union(*self.classes.values())

    def module_members(self, stem: str) -> set[str] | None:
        """The names bound by every module whose last part is ``stem`` (None: no such module)."""
        found = [names for mod, names in self.modules.items() if mod.rsplit(".", 1)[-1] == stem]
        return set().union(*found) if found else None


def _bound(node) -> set[str]:
    """The names a statement binds at its own level."""
    if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
        return {node.name}
    if isinstance(node, (ast.Assign, ast.AnnAssign, ast.AugAssign)):
        targets = node.targets if isinstance(node, ast.Assign) else [node.target]
        return {n.id for t in targets for n in ast.walk(t) if isinstance(n, ast.Name)}
    if isinstance(node, (ast.Import, ast.ImportFrom)):
        return {(a.asname or a.name).split(".")[0] for a in node.names}
    return set()


CODE = Code()


def path_exists(path: str) -> bool:
    """A path the prose names: under the repository, under analyzer/, or (a bare file name) a
    file of that name somewhere in analyzer/, scripts/ or tests/."""
    path = path.rstrip("/").split("#")[0].split(":")[0]
    if (ROOT / path).exists() or (PACKAGE / path).exists():
        return True
    if "/" not in path:
        return any(any(d.rglob(path)) for d in CODE_DIRS)
    return False


def stale(span: str) -> str | None:
    """Why ``span`` names something that does not exist, or None (it exists, or it is not a
    code name)."""
    span = span.strip()
    if PLACEHOLDERS.search(span):
        return None
    m = PYTHON_M.match(span)
    if m:
        return None if _module_exists(m.group(1)) else f"no module {m.group(1)}"
    if " " in span or span.startswith(("-", "R", "V", "H")) and span[1:2].isdigit():
        return None
    call = CALL.match(span)
    if call:
        span = call.group(1)
    if "/" in span or FILE_SUFFIX.search(span):
        return _path(span)
    if DOTTED.fullmatch(span):
        return _dotted(span)
    if IDENT.fullmatch(span) and ("_" in span.strip("_") or any(c.isupper() for c in span[1:])):
        return None if span in CODE.names else f"no name {span}"
    return None


def _module_exists(name: str) -> bool:
    try:
        return find_spec(name) is not None
    except ModuleNotFoundError:
        return False


def _path(span: str) -> str | None:
    """A path of the code (a file or folder, or ``run/backends.side_by_side``: a module's name)."""
    if span.startswith(("results/", "http", "~")) or ("/" in span and not span.startswith(PATH_ROOTS)
                                                      and span.split("/")[0] not in _subpackages()):
        return None
    if "/" not in span and not span.endswith(".py") or span == ".py":
        return None                      # a bare file name the program writes (report.md, run.json)
    head, _, last = span.rpartition("/")
    if "." in last and not FILE_SUFFIX.search(last):
        stem, _, name = last.partition(".")
        module = f"{head}/{stem}.py"
        if not path_exists(module):
            return f"no file {module}"
        mod = ".".join(("analyzer", *Path(module).with_suffix("").parts)) if not module.startswith("analyzer/") \
            else ".".join(Path(module).with_suffix("").parts)
        mod = mod.removesuffix(".__init__")
        return None if name.split(".")[0] in CODE.modules.get(mod, set()) else f"{module} has no {name}"
    return None if path_exists(span) or path_exists(span + ".py") else f"no file {span}"


def _subpackages() -> set[str]:
    return {p.name for p in PACKAGE.iterdir() if p.is_dir() and (p / "__init__.py").exists()}


def _dotted(span: str) -> str | None:
    parts = span.split(".")
    if parts[0] == "analyzer":
        k = max((k for k in range(1, len(parts) + 1) if ".".join(parts[:k]) in CODE.modules), default=0)
        if k == 0:
            return f"no module {span}"
        module, rest = ".".join(parts[:k]), parts[k:]
        if not rest or rest[0] in CODE.modules[module] and (len(rest) == 1 or rest[1] in CODE.names):
            return None
        return f"{module} has no {'.'.join(rest)}"
    head, name = parts[-2], parts[-1]
    if any(p[:1].isdigit() for p in parts):
        return None
    if head in CODE.classes:
        return None if name in CODE.classes[head] else f"{head} has no {name}"
    members = CODE.module_members(head)
    if members is not None:
        return None if name in members or name in CODE.attributes else f"no module {head} with {name}"
    return None
