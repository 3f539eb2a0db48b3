"""Docs that cannot go stale (issue 55): every module, function, class, constant and file that
README.md, docs/*.md and the docstrings name in code quotes exists (tests/doc_names.py says how a
name is recognised and looked up), so a rename that leaves a stale name behind fails here."""
from __future__ import annotations

import ast

import pytest
from doc_names import CODE, PATH_IN_TEXT, ROOT, backticks, double_backticks, roles, stale, stale_role

DOCS = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]


@pytest.mark.parametrize("doc", DOCS, ids=lambda p: p.name)
def test_every_code_name_in_the_docs_exists(doc):
    found = {span: why for span in backticks(doc.read_text(encoding="utf-8")) if (why := stale(span))}
    assert found == {}


def docstrings():
    """(where, text) of every docstring and comment line of analyzer/ and scripts/."""
    for path, tree in CODE.trees.items():
        if "tests" in path.relative_to(ROOT).parts[:1]:
            continue
        where = str(path.relative_to(ROOT))
        for node in ast.walk(tree):
            if isinstance(node, (ast.Module, ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef)):
                doc = ast.get_docstring(node, clean=False)
                if doc:
                    yield f"{where}:{getattr(node, 'lineno', 1)}", doc
        comments = [line.split("#", 1)[1] for line in path.read_text(encoding="utf-8").splitlines() if "#" in line]
        yield f"{where} (comments)", "\n".join(comments)


def test_every_code_name_in_the_docstrings_exists():
    found = {}
    for where, text in docstrings():
        spans = double_backticks(text) + PATH_IN_TEXT.findall(text)
        bad = {span: why for span in spans if (why := stale(span))}
        bad.update({target: why for target in roles(text) if (why := stale_role(target))})
        if bad:
            found[where] = bad
    assert found == {}


@pytest.mark.parametrize("span, why", [
    ("analyzer/studies/exact.py", "no file"), ("registry.py", "no file"), ("scripts/train_stage2_value.py", "no file"),
    ("python -m analyzer.studies.published.ladder", "no module"), ("network.T_HINTS", "no module network with"),
    ("E_PRIOR", "no name"), ("analyzer.studies.compare.ablation", "analyzer.studies has no"), ("PolicySpec.resolve_name", "has no"),
    ("analyzer.studies.play.compare.ablation", "has no")])
def test_a_stale_name_is_found(span, why):
    """The check can fail: names this project once had, or never had."""
    assert why in (stale(span) or "")


@pytest.mark.parametrize("span", ["analyzer/engine/hand.py", "engine/hand.py", "hand.py", "scripts/bench.py",
                                  "python -m analyzer.published.ladder", "network.q_value", "resolve_policy",
                                  "HandState", "analyzer.studies.play.compare.compare", "PolicySpec.kernel",
                                  "mean_diff", "bezique simulate --hands 10", "R2.20", "hints:tuned-ordinary",
                                  "results/quickstart/report.md", "0.5135"])
def test_a_name_that_exists_or_is_no_code_name_passes(span):
    assert stale(span) is None


def test_a_role_names_code_or_is_stale():
    """A role (:func:`x`) always names code: a first part that is no module or class is stale."""
    assert stale_role("hint_study.hint_table") and stale_role("no_such_function")
    assert stale_role(".features") is None and stale_role("analyzer.studies.play.simulate.simulate") is None
    assert stale_role("SeatData") is None and stale_role("study.hint_table") is None
