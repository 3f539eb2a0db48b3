"""The strongest player's figures beside the band (analyzer/published/strongest.py, issue 60):
where a figure lies against the band, the tables of a tiny run, and a run stopped part-way and
resumed, which writes what a run never stopped writes."""
from __future__ import annotations

import pandas as pd
import pytest

from analyzer.published import strongest
from analyzer.run.checkpoint import CheckpointError
from analyzer.tables.band_table import band_figures

TINY = ["--scale", "0.0005", "--games", "rubicon", "--threads", "1", "--no-readme"]   # 10 games each


def test_where_the_strongest_figure_lies_against_the_band():
    assert strongest.where(5.0, 4.0, 6.0, 4.5, 5.5) == "inside"
    assert strongest.where(4.5, 4.0, 5.0, 4.5, 5.5) == "inside"              # on the band's edge
    assert strongest.where(6.0, 5.0, 7.0, 4.5, 5.5) == "above"               # its interval reaches the band
    assert strongest.where(6.0, 5.6, 6.4, 4.5, 5.5) == "above, clear of it"
    assert strongest.where(3.0, 2.0, 4.6, 4.5, 5.5) == "below"
    assert strongest.where(3.0, 2.0, 4.4, 4.5, 5.5) == "below, clear of it"


class StopAfter:
    """A progress bar that stops the run (as Ctrl-C does) once ``limit`` hands are counted."""

    limit = None

    def __init__(self, total, **_kw):
        self.n = 0

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        return False

    def update(self, n):
        self.n += n
        if StopAfter.limit is not None and self.n >= StopAfter.limit:
            raise KeyboardInterrupt


@pytest.fixture(scope="module")
def whole(tmp_path_factory):
    """A tiny run of the study, never stopped (its folder)."""
    out = tmp_path_factory.mktemp("strongest") / "whole"
    assert strongest.main([*TINY, "--out", str(out)]) == 0
    return out


def test_a_tiny_run_writes_the_band_and_a_stopped_run_resumes_to_the_same_tables(whole, tmp_path, monkeypatch):
    df = pd.read_csv(whole / "figures.csv", index_col=0)
    players = strongest.fast_players("rubicon")
    assert len(players) >= 3 and list(dict.fromkeys(df.player)) == [*players, "expert"]
    assert list(dict.fromkeys(df.figure)) == [k for k, _w, _u in band_figures(True)]
    for _key, f in df.groupby("figure"):
        fast = f[f.player != "expert"]
        best = f[f.player == "expert"].iloc[0]
        assert (f.band_lo == fast.value.min()).all() and (f.band_hi == fast.value.max()).all()
        assert (f.strongest_is == strongest.where(best.value, best.value_lo, best.value_hi,
                                                  fast.value.min(), fast.value.max())).all()
    assert (df.hands == 10).all() and (whole / "figures_rubicon.png").exists()
    assert not (whole / ".checkpoint").exists()                     # a finished run keeps none

    part = tmp_path / "part"
    with pytest.raises(CheckpointError, match="nothing to resume"):
        strongest.main([*TINY, "--out", str(part), "--resume"])
    monkeypatch.setattr(strongest, "tqdm", StopAfter)
    StopAfter.limit = 20
    with pytest.raises(KeyboardInterrupt):
        strongest.main([*TINY, "--out", str(part)])
    assert (part / ".checkpoint").is_dir() and not (part / "figures.csv").exists()
    StopAfter.limit = None
    assert strongest.main([*TINY, "--out", str(part), "--resume"]) == 0
    assert (part / "figures.csv").read_text() == (whole / "figures.csv").read_text()


def test_replaying_one_player_keeps_the_others_and_writes_what_a_whole_run_writes(whole, tmp_path, monkeypatch):
    """``--replay PLAYER`` plays only that player's self-play again (the same deals: every
    self-play's are the seed's) and keeps the others' figures from figures.csv: the same table
    as a whole run. Kept figures of other deals or other networks are refused, one message."""
    import shutil

    from analyzer.published import StudyError
    players = strongest.fast_players("rubicon")
    again = tmp_path / "again"
    shutil.copytree(whole, again)
    for replayed in ([players[-1]], players[:2]):
        args = [a for p in replayed for a in ("--replay", p)]
        assert strongest.main([*TINY, *args, "--out", str(again)]) == 0
        assert (again / "figures.csv").read_text() == (whole / "figures.csv").read_text(), replayed
    with pytest.raises(StudyError, match="--replay it too"):       # kept figures of other deals
        strongest.main([*TINY[:1], "0.001", *TINY[2:], "--replay", "expert", "--out", str(again)])
    with pytest.raises(StudyError, match="give one of them"):
        strongest.main(["--tables", "--replay", "expert", "--no-readme", "--out", str(again)])
    with pytest.raises(StudyError, match="not a player"):
        strongest.main([*TINY, "--replay", "greedy", "--out", str(again)])
    with pytest.raises(StudyError, match="run the study without --replay first"):
        strongest.main([*TINY, "--replay", "expert", "--out", str(tmp_path / "empty")])
    changed = players[1]                                            # its network replaced since
    real = strongest.networks
    monkeypatch.setattr(strongest, "networks", lambda g, p: "0" * 16 if p == changed else real(g, p))
    with pytest.raises(StudyError, match=f"{changed}'s rubicon self-play was played with other networks"):
        strongest.main([*TINY, "--replay", "expert", "--out", str(again)])
    assert strongest.main([*TINY, "--replay", changed, "--out", str(again)]) == 0
    assert set(pd.read_csv(again / "figures.csv").query("player == @changed").networks) == {"0" * 16}


def test_tables_only_without_the_tables_is_one_message(tmp_path):
    """``--tables`` where no run wrote figures.csv: one line naming the file, not a traceback."""
    from analyzer.published import StudyError
    with pytest.raises(StudyError, match="no figures.csv to read"):
        strongest.main(["--tables", "--no-readme", "--out", str(tmp_path)])


def test_the_shipped_summary_is_the_committed_study_and_names_only_its_own_band(tmp_path, monkeypatch):
    """analyzer/tables/strongest.json (what the report says beside its band) is what the
    committed results/strongest/figures.csv says, and answers only for that band of players and
    for the networks it was measured with (a band whose model file changed gets no answer)."""
    import json
    from pathlib import Path

    from analyzer.tables.band_table import STRONGEST_FILE, strongest_beside
    df = pd.read_csv(Path(__file__).parent.parent / "results" / "strongest" / "figures.csv", index_col=0)
    assert json.loads(STRONGEST_FILE.read_text(encoding="utf-8")) == strongest.shipped(df, strongest.recorded_models())
    band = strongest.fast_players("rubicon")
    got = strongest_beside("rubicon", band)
    clear = {k for k, f in got["figures"].items() if f["where"].endswith("clear of it")}
    rows = df[(df.game == "rubicon") & df.strongest_is.str.endswith("clear of it")]
    assert clear == set(rows.figure) and got["deals"] == 20_000
    assert strongest_beside("rubicon", band[:2]) is None and strongest_beside("three_handed", band) is None
    assert strongest_beside("ordinary", strongest.fast_players("ordinary")) is not None   # both games shipped fresh
    from analyzer.tables import band_table
    other = {**json.loads(STRONGEST_FILE.read_text(encoding="utf-8"))}
    other["rubicon"] = {**other["rubicon"], "models": {**other["rubicon"]["models"], "learned": "0" * 16}}
    stale = tmp_path / "strongest.json"
    stale.write_text(json.dumps(other), encoding="utf-8")
    monkeypatch.setattr(band_table, "STRONGEST_FILE", stale)
    assert strongest_beside("rubicon", band) is None
