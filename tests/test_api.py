"""The public Python API: light to import, the README's notebook session runs, results typed."""
import inspect
import re
import subprocess
import sys
from pathlib import Path

import pandas as pd
import pytest

import analyzer

README = Path(__file__).parent.parent / "README.md"


def readme_notebook_session() -> str:
    section = README.read_text().split("## Python API", 1)[1]
    return re.search(r"```python\n(.*?)```", section, re.S).group(1)


def test_import_loads_neither_matplotlib_nor_the_engine():
    """Importing the package, and its charts package, loads neither matplotlib nor a kernel
    (a command that draws nothing starts without them); the first chart function asked for
    loads matplotlib, but not pyplot's backend choice."""
    code = ("import sys, analyzer, analyzer.plots\n"
            "heavy = [m for m in sys.modules if m.startswith(('matplotlib', 'analyzer.engine.batch',"
            " 'analyzer.policies'))]\n"
            "analyzer.plots.score_chart\n"
            "print(heavy, 'matplotlib' in sys.modules, 'matplotlib.pyplot' in sys.modules)")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.strip() == "[] True False"


def test_the_commands_that_may_draw_nothing_start_without_matplotlib():
    """``simulate``, ``trace``, ``replay``, ``compare``, ``odds`` and ``value`` draw a chart only
    with ``--out``: their modules load matplotlib with the first chart, not when they start
    (about 0.2 s of each start-up)."""
    code = ("import sys, analyzer.cli.play, analyzer.cli.compare, analyzer.cli.odds\n"
            "print('matplotlib' in sys.modules)")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.strip() == "False"


def test_every_chart_name_is_its_modules_function():
    """The charts package's lazy names: each of ``__all__`` is the function its module defines."""
    import importlib

    from analyzer import plots
    assert plots.__all__ == sorted(plots._WHERE)
    for name in plots.__all__:
        function = getattr(plots, name)
        assert callable(function) and function is getattr(importlib.import_module(function.__module__), name)
        assert function.__module__.startswith("analyzer.plots."), name


def test_names_stay_the_functions_when_their_modules_are_imported():
    import analyzer.studies.play.compare
    import analyzer.studies.play.simulate  # noqa: F401 (a submodule import must not shadow the function)
    from analyzer.studies.play.simulate import simulate
    assert analyzer.simulate is simulate
    assert analyzer.compare is sys.modules["analyzer.studies.play.compare"].compare
    assert inspect.isfunction(analyzer.compare) and inspect.isfunction(analyzer.study)


@pytest.mark.parametrize("name", analyzer.__all__)
def test_every_public_name_is_documented_and_typed(name):
    obj = getattr(analyzer, name)
    assert obj.__doc__ and len(obj.__doc__) > 40, name
    if inspect.isfunction(obj):
        assert inspect.signature(obj).return_annotation is not inspect.Signature.empty, name
        assert "return" in obj.__doc__.lower(), name


def test_readme_notebook_session_runs(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    ns = {}
    exec(compile(readme_notebook_session(), "README.md", "exec"), ns)
    result, cmp = ns["result"], ns["cmp"]
    assert isinstance(result, analyzer.Result) and result.rules.hand_size == 9
    assert result.tables is result.tables                  # computed once
    assert list(result.tables["summary"].policy) == ["greedy", "random"]
    assert isinstance(cmp, analyzer.Comparison) and len(cmp.pairs) == 3 and len(cmp.ranking) == 3
    assert (tmp_path / "scores.png").stat().st_size > 10_000


def test_odds_and_study_return_their_tables():
    rules = analyzer.preset("rubicon")
    odds = analyzer.odds(rules, 2000, seed=1)
    assert isinstance(odds, pd.DataFrame) and "dealt_double_bezique" in set(odds.event)
    st = analyzer.study(rules, 300, seed=2, pairings=(("greedy", "greedy"),), head_to_head=())
    assert isinstance(st, analyzer.Study) and st.tables is st.tables and st.pairwise is None
    assert list(st.tables["summary"].pairing) == ["greedy vs greedy"] * 2
    assert st.tables["rubicon"].games.iloc[0] == 300
