"""Kernels take their arguments in a few named bundles: a numba kernel of more than
MAX_ARGS positional arguments says why on the comment line right above it, and at most
MAX_LONG_KERNELS kernels of the package are that long."""
from __future__ import annotations

import ast
from pathlib import Path

ANALYZER = Path(__file__).resolve().parent.parent / "analyzer"
MAX_ARGS = 8
MAX_LONG_KERNELS = 3


def kernel_arguments(source: str) -> list[tuple[str, int]]:
    """(name, positional arguments) of each numba kernel of ``source`` (any function with a
    ``jit`` decorator)."""
    return [(node.name, len(node.args.args)) for node in ast.walk(ast.parse(source))
            if isinstance(node, ast.FunctionDef) and any("jit" in ast.unparse(d) for d in node.decorator_list)]


def too_many_long_kernels(sources: dict[str, str]) -> list[str]:
    """The kernels of more than MAX_ARGS arguments in ``sources`` (path: source) when there are
    more than MAX_LONG_KERNELS of them, else none."""
    long = [f"{path}: {name} ({n})" for path, source in sources.items()
            for name, n in kernel_arguments(source) if n > MAX_ARGS]
    return long if len(long) > MAX_LONG_KERNELS else []


def long_kernels(source: str) -> list[str]:
    """The numba kernels of ``source`` with more than MAX_ARGS arguments whose comment block right
    above their first decorator does not start ``# N arguments: why``."""
    lines = source.splitlines()
    out = []
    for node in ast.walk(ast.parse(source)):
        if not isinstance(node, ast.FunctionDef) or not any("jit" in ast.unparse(d) for d in node.decorator_list):
            continue
        n = len(node.args.args)
        i = node.decorator_list[0].lineno - 2         # the line above the decorator (0-based)
        while i > 0 and lines[i - 1].startswith("#"):
            i -= 1
        above = lines[i] if i >= 0 else ""
        if n > MAX_ARGS and not above.startswith(f"# {n} arguments: "):
            out.append(f"{node.name} ({n})")
    return out


def test_every_long_kernel_says_why():
    found = {str(p.relative_to(ANALYZER)): long_kernels(p.read_text()) for p in ANALYZER.rglob("*.py")}
    assert not {k: v for k, v in found.items() if v}


def test_the_check_finds_a_long_kernel_without_its_comment():
    bare = "@njit\ndef f(a, b, c, d, e, f, g, h, i):\n    pass\n"
    assert long_kernels(bare) == ["f (9)"]
    assert long_kernels("# 9 arguments: a reason\n# on two lines\n" + bare) == []
    assert long_kernels("# 8 arguments: miscounted\n" + bare) == ["f (9)"]


def test_few_kernels_take_more_than_max_args():
    """At most MAX_LONG_KERNELS kernels of analyzer/ take more than MAX_ARGS positional
    arguments, whether or not they say why (the rest take bundles)."""
    sources = {str(p.relative_to(ANALYZER)): p.read_text() for p in ANALYZER.rglob("*.py")}
    assert not too_many_long_kernels(sources)


def test_the_count_finds_one_long_kernel_too_many():
    kernel = "@njit(cache=True)\ndef {}(a, b, c, d, e, f, g, h{}):\n    pass\n"
    at_most = {f"m{k}.py": kernel.format(f"f{k}", ", i") for k in range(MAX_LONG_KERNELS)}
    assert kernel_arguments(at_most["m0.py"]) == [("f0", 9)]
    assert too_many_long_kernels(at_most) == []
    assert too_many_long_kernels({**at_most, "short.py": kernel.format("g", "")}) == []
    more = {**at_most, "long.py": "# 9 arguments: a reason\n" + kernel.format("g", ", i")}
    assert len(too_many_long_kernels(more)) == MAX_LONG_KERNELS + 1
    assert "long.py: g (9)" in too_many_long_kernels(more)
