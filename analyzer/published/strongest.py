"""The strongest player's figures beside the band (issue 60): writes results/strongest/ and its
page (results/strongest/README.md).

- ``figures.csv``: per game, each headline figure of the report's band (tables.band_table.FIGURES:
  the mean total, a double bézique received and scored, the margin per brisque, the hands to reach
  1,000 or the rubicon rate and the winner's game score) in the self-play of each of the package's
  fast strong players (``learned``, ``learned:player=2``, ``learned:player=3``: the report's band)
  and of ``expert`` (the search over ``learned``, the strongest player), each with its 95 %
  interval; the band (the lowest to the highest fast player); where ``expert``'s figure lies
  (inside the band, above or below it, "clear of it" where its whole interval is outside); and
  whether the four players agree within 5 % (band_table.verdict: the same verdict as the band's);
  and the fingerprints of the networks each player's self-play reads (``networks``);
- ``figures_GAME.png``: a panel per figure, each player's value with its interval and the band
  shaded;
- (unless ``--no-readme``) the package's analyzer/tables/strongest.json: where each of the
  strongest player's figures lies beside the band, which the report says
  (band_table.strongest_beside).

Every self-play is on the same deals (the same seed), of a seed no training or tuning played.
The search plays a few dozen hands a second on a core, so the committed run takes hours: it is
checkpointed in ``--out`` and ``--resume`` continues it after a stop (docs/long-runs.md), to the
same tables as a run never stopped. ``--replay PLAYER`` plays only that player again (a band
player whose network was replaced) and keeps the others' rows of figures.csv: every self-play is
on the seed's deals, so the tables are a whole run's.

Example:
    bezique study strongest                                   # the committed figures (hours on one core)
    bezique study strongest --resume                          # continue it after a stop
    bezique study strongest --games rubicon --replay learned:player=3   # a new band player only
    bezique study strongest --scale 0.002 --no-readme --out /tmp/strongest
"""
from __future__ import annotations

import json
import sys
from pathlib import Path

import numpy as np
import pandas as pd
from matplotlib.figure import Figure
from tqdm import tqdm

from ..numbers import count, points, points_decimals, share, share_decimals
from ..plots.figure import save_chart
from ..policies.learned import shipped_player_name, shipped_players
from ..policies.stage2_value import MODEL as VALUE_MODEL
from ..rules import preset
from ..run.checkpoint import keep_checkpoints
from ..run.output import atomic_write, write_table
from ..studies.report.study import hands_played, study
from ..tables.band_table import (
    STRONGEST_FILE,
    VERDICTS,
    band_figures,
    band_models,
    file_fingerprint,
    is_share,
    player_figures,
    shipped_strongest,
    verdict,
)
from .common import RESULTS, publish, read_tables, scaled_command, scaler, study_parser, table, with_other_games
from . import StudyError
from .common import command as command_line

SEED = 20261260
MARK = "strongest"
SELF_PLAY = {"ordinary": (100_000, 100_000), "rubicon": (20_000, 20_000)}   # hands: each fast player, expert
STRONGEST = "expert"


def fast_players(game: str) -> list[str]:
    """The report's band: the package's fast strong players of ``game``."""
    return [shipped_player_name(p) for p in shipped_players(game)]


def deals_word(game: str) -> str:
    """What a game's self-play is counted in: Rubicon games, ordinary hands."""
    return "games" if game == "rubicon" else "hands"


def where(value: float, lo: float, hi: float, band_lo: float, band_hi: float) -> str:
    """Where the strongest player's figure ``value`` [``lo``, ``hi``] lies against the band
    [``band_lo``, ``band_hi``] (the fast players' lowest and highest values): "inside",
    "above" or "below", and "clear of it" where its whole interval is outside the band."""
    if band_lo <= value <= band_hi:
        return "inside"
    above = value > band_hi
    clear = lo > band_hi if above else hi < band_lo
    return ("above" if above else "below") + (", clear of it" if clear else "")


def networks(game: str, player: str) -> str:
    """The fingerprints of the network files ``player``'s self-play of ``game`` reads (a fast
    player: its own model; ``expert``: the roll-outs' ``learned`` and, in the ordinary game, the
    second stage's value network), so that a self-play is reused only with the same networks."""
    files = band_models(game, ["learned" if player == STRONGEST else player])
    if player == STRONGEST and game == "ordinary" and files:
        files["value"] = file_fingerprint(VALUE_MODEL)
    return "+".join(files.values())


def measure(args, argv: list[str], out: Path) -> None:
    """Every player's self-play of each game, checkpointed in ``out`` (``args.resume``
    continues a stopped run, ``argv`` its command line); written as figures.csv. With
    ``args.replay`` only those players play; the others' figures are read from ``out``'s
    figures.csv (:func:`kept_estimates`)."""
    size = scaler(args.scale)
    jobs = {game: (preset(game), fast_players(game), *(size(n) for n in SELF_PLAY[game])) for game in args.games}
    replay = set(args.replay or ())
    plays = (lambda p: p in replay) if replay else (lambda p: True)
    kept = {}
    for game, (_rules, players, fast, slow) in jobs.items():
        unknown = replay - {*players, STRONGEST}
        if unknown:
            raise StudyError(f"--replay {sorted(unknown)[0]}: not a player of the {game} study (its players: "
                             f"{', '.join([*players, STRONGEST])})")
        hands = {**{p: fast for p in players}, STRONGEST: slow}
        kept[game] = kept_estimates(out, game, [p for p in hands if not plays(p)], args.seed, hands)
    line = command_line("strongest", *(a for a in argv if a != "--resume"), "--resume")     # what continues it
    command = {"name": "study strongest", "line": line,
               "args": {"games": args.games, "seed": args.seed, "scale": args.scale, "replay": sorted(replay),
                        "players": {g: j[1] for g, j in jobs.items()}}}
    total = sum(hands_played(fast, ((STRONGEST, STRONGEST, slow),) if plays(STRONGEST) else (),
                             pairings=[(p, p) for p in players if plays(p)], head_to_head=())
                for _rules, players, fast, slow in jobs.values())
    rows = []
    out.mkdir(parents=True, exist_ok=True)
    with keep_checkpoints(out, command, resume=args.resume), \
            tqdm(total=total, unit="hand", unit_scale=True, file=sys.stderr) as bar:
        for game, (rules, players, fast, slow) in jobs.items():
            st = study(rules, fast, args.seed, args.threads, pairings=[(p, p) for p in players if plays(p)],
                       head_to_head=(), extra=((STRONGEST, STRONGEST, slow),) if plays(STRONGEST) else (),
                       progress=bar.update)
            rubicon = game == "rubicon"
            est = {p: (player_figures(st.tables, p, rubicon), st.results[f"{p} vs {p}"].hands, networks(game, p))
                   for p in [*players, STRONGEST] if plays(p)}
            est.update(kept[game])
            rows += figure_rows(game, est, players, args.seed)
    df = with_other_games(pd.DataFrame(rows), out / "figures.csv", args.games)
    write_table(df, out, "figures")


def kept_estimates(out: Path, game: str, players: list[str], seed: int, hands: dict[str, int]) -> dict:
    """``players``' figures of ``game`` as figures.csv in ``out`` has them (player -> (figure ->
    (value, lo, hi), hands, networks)), refused unless each was played on this run's deals
    (``seed``, ``hands`` of each player) with the networks shipped now."""
    path = out / "figures.csv"
    if not players:
        return {}
    if not path.is_file():
        raise StudyError(f"{path}: no figures to keep beside --replay (run the study without --replay first)")
    df = pd.read_csv(path, index_col=0)
    est = {}
    for p in players:
        d = df[(df.game == game) & (df.player == p)]
        if d.empty or int(d.seed.iloc[0]) != seed or int(d.hands.iloc[0]) != hands[p]:
            raise StudyError(f"{path}: no {game} self-play of {p} on these deals (seed {seed}, "
                             f"{count(hands[p])} {deals_word(game)}) to keep: --replay it too")
        if "networks" not in d or d.networks.iloc[0] != networks(game, p):
            raise StudyError(f"{path}: {p}'s {game} self-play was played with other networks than the "
                             "package's now: --replay it too")
        est[p] = ({r.figure: (r.value, r.value_lo, r.value_hi) for r in d.itertuples()}, int(d.hands.iloc[0]),
                  d.networks.iloc[0])
    return est


def figure_rows(game: str, est: dict, players: list[str], seed: int) -> list[dict]:
    """The rows of figures.csv for one game: each figure per player (``est``: player -> (figure ->
    (value, lo, hi), hands, networks)), the band over ``players`` and where the strongest
    player's figure lies."""
    rubicon = game == "rubicon"
    rows = []
    for key, what, unit in band_figures(rubicon):
        band = [est[p][0][key][0] for p in players]
        band_lo, band_hi = min(band), max(band)
        agree = verdict([est[p][0][key] for p in [*players, STRONGEST]])
        for p in [*players, STRONGEST]:
            value, lo, hi = est[p][0][key]
            rows.append({"game": game, "figure": key, "what": what, "unit": unit, "player": p, "value": value,
                         "value_lo": lo, "value_hi": hi, "hands": est[p][1],
                         "band_lo": band_lo, "band_hi": band_hi,
                         "strongest_is": where(*est[STRONGEST][0][key], band_lo, band_hi),
                         "all_agree": agree, "seed": seed, "networks": est[p][2]})
    return rows


def shown(row) -> str:
    """A figure's value with its interval, in its unit's format."""
    return (share if is_share(row.unit) else points)(row.value, row.value_lo, row.value_hi)


def band_text(row) -> str:
    """The band of a figure, lowest to highest, both in the same format: "5.50 % to 8.00 %"."""
    if is_share(row.unit):
        d = share_decimals(max(abs(row.band_lo), abs(row.band_hi)))
        return f"{100 * row.band_lo:.{d}f} % to {100 * row.band_hi:.{d}f} %"
    d = points_decimals(max(abs(row.band_lo), abs(row.band_hi)))
    return f"{row.band_lo:,.{d}f} to {row.band_hi:,.{d}f}"


def figure(df: pd.DataFrame, game: str) -> Figure:
    """A panel per headline figure: each player's self-play value with its 95 % interval, the
    fast players' band shaded, the strongest player in black."""
    d = df[df.game == game]
    keys = list(dict.fromkeys(d.figure))
    players = list(dict.fromkeys(d.player))
    fig = Figure(figsize=(13, 1.6 + 1.5 * ((len(keys) + 2) // 3)), layout="constrained")
    axes = fig.subplots((len(keys) + 2) // 3, 3).ravel()
    for ax, key in zip(axes, keys):
        f = d[d.figure == key].set_index("player").loc[players]
        scale = 100.0 if is_share(f.unit.iloc[0]) else 1.0
        y = np.arange(len(players))
        ax.axvspan(scale * f.band_lo.iloc[0], scale * f.band_hi.iloc[0], color="C0", alpha=0.15, label="the band")
        colors = ["k" if p == STRONGEST else "C0" for p in players]
        for i, p in enumerate(players):
            r = f.loc[p]
            ax.errorbar(scale * r.value, i, xerr=[[scale * (r.value - r.value_lo)], [scale * (r.value_hi - r.value)]],
                        fmt="s" if p == STRONGEST else "o", color=colors[i], capsize=3)
        ax.set_yticks(y, players, fontsize=8)
        ax.set_ylim(len(players) - 0.5, -0.5)
        ax.set_title(f"{f.what.iloc[0]}\n(strongest: {f.strongest_is.iloc[0]})", fontsize=9)
        ax.set_xlabel("%" if scale == 100 else f.unit.iloc[0], fontsize=8)
        ax.tick_params(labelsize=8)
        ax.grid(axis="x", alpha=0.3)
    for ax in axes[len(keys):]:
        ax.set_visible(False)
    hands = d.groupby("player").hands.first()
    unit = deals_word(game)
    fig.suptitle(f"{game}: the headline figures in self-play, the fast strong players' band (shaded) and "
                 f"{STRONGEST}, the strongest (95 % intervals; {count(int(hands[players[0]]))} {unit} each, "
                 f"{STRONGEST} {count(int(hands[STRONGEST]))})", fontsize=10)
    return fig


def markdown(df: pd.DataFrame, command: str) -> str:
    """The page's section: per game, each figure per player, the band and the verdicts."""
    lines = [f"Made by `{command}`: each player's self-play on the same deals (seed {int(df.seed.iloc[0])}, "
             "which no training or tuning played); 95 % intervals. The band is the fast strong players' "
             f"(the report's); `{STRONGEST}` is the search over `learned`, the strongest player.", ""]
    for game in dict.fromkeys(df.game):
        d = df[df.game == game]
        players = list(dict.fromkeys(d.player))
        hands = d.groupby("player").hands.first()
        rows = [g.set_index("player") for _k, g in d.groupby("figure", sort=False)]
        unit = deals_word(game)
        lines += [f"**{game}** ({count(int(hands[players[0]]))} {unit} of each fast player's self-play, "
                  f"{count(int(hands[STRONGEST]))} of `{STRONGEST}`'s):", ""]
        columns = [("figure", lambda r: r.what.iloc[0])]
        columns += [(f"`{p}`", lambda r, p=p: shown(r.loc[p])) for p in players]
        columns += [("the band", lambda r: band_text(r.iloc[0])),
                    (f"`{STRONGEST}` is", lambda r: r.strongest_is.iloc[0]),
                    ("every player", lambda r: VERDICTS[r.all_agree.iloc[0]])]
        lines += table(rows, columns) + [""]
        outside = [r.what.iloc[0] for r in rows if r.strongest_is.iloc[0].endswith("clear of it")]
        lines += [(f"The strongest player's figure lies clear of the band for: {', '.join(outside)}; there "
                   "the band is not yet the game's." if outside else
                   "No figure of the strongest player lies clear of the band."), "",
                  f"![{game}](figures_{game}.png)", ""]
    return "\n".join(lines).rstrip() + "\n"


def recorded_models() -> dict:
    """game -> the fingerprints of the band's networks its shipped figures were measured with
    (STRONGEST_FILE), for the games that record them."""
    return {game: got["models"] for game, got in shipped_strongest().items() if got.get("models")}


def shipped(df: pd.DataFrame, models: dict) -> dict:
    """What the report says of the strongest player beside its band (band_table.strongest_beside),
    per game of figures.csv ``df``: the band's players and the fingerprints of their networks
    (``models``: game -> band_table.band_models, as measured; a game missing there: the networks
    shipped now), the strongest's deals and where each of its figures lies."""
    out = {}
    for game in dict.fromkeys(df.game):
        d = df[df.game == game]
        first = d.drop_duplicates("figure")
        players = [p for p in dict.fromkeys(d.player) if p != STRONGEST]
        out[game] = {"players": players, "strongest": STRONGEST,
                     "deals": int(d[d.player == STRONGEST].hands.iloc[0]), "unit": deals_word(game),
                     "seed": int(d.seed.iloc[0]), "models": models.get(game, band_models(game, players)),
                     "figures": {r.figure: {"what": r.what, "where": r.strongest_is} for r in first.itertuples()}}
    return out


def main(argv=None) -> int:
    """Run the study (see the module docstring)."""
    ap = study_parser("strongest", __doc__, SEED, str(RESULTS / "strongest"),
                      tables="only write the charts and markdown from the tables in --out")
    ap.add_argument("--resume", action="store_true", help="continue the run stopped in --out (same arguments)")
    ap.add_argument("--replay", action="append", metavar="PLAYER",
                    help="play only this player's self-play again (repeatable; e.g. a band player whose network "
                         "changed): the others' figures are kept from --out's figures.csv, refused unless they "
                         "were played on the same deals with the networks shipped now")
    argv = sys.argv[1:] if argv is None else list(argv)
    args = ap.parse_args(argv)
    if args.tables and args.replay:
        raise StudyError("--replay plays a player again and --tables plays nothing: give one of them")
    out = Path(args.out).resolve()
    if not args.tables:
        measure(args, argv, out)
    (df,) = read_tables(out, "figures")
    for game in df.game.unique():
        save_chart(figure(df, game), out, f"figures_{game}")
    if not args.no_readme:              # the report says where the strongest lies beside its band
        measured = [] if args.tables else args.games
        models = {**recorded_models(), **{g: band_models(g, fast_players(g)) for g in measured}}
        atomic_write(STRONGEST_FILE, lambda p: Path(p).write_text(json.dumps(shipped(df, models), indent=1) + "\n"))
    return publish(args, MARK, markdown(df, scaled_command("strongest", args.scale)), "The figures, player by player",
                   title="The strongest player's figures beside the band")


if __name__ == "__main__":
    raise SystemExit(main())
