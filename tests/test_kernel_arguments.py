"""Kernels take their arguments in a few named bundles: a numba kernel of more than
MAX_ARGS positional arguments says why on the comment line right above it."""
from __future__ import annotations

import ast
from pathlib import Path

ANALYZER = Path(__file__).resolve().parent.parent / "analyzer"
MAX_ARGS = 8


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
