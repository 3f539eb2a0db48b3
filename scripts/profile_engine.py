"""Where a batch's time goes, function by function, sampled by Linux ``perf`` while hands are
played; the functions grouped by what they do for the rules, beside the minimal hand loop
(scripts/minimal_hand.py), which does none of it.

numba's compiled code has no symbols ``perf`` can read: after compiling, this script writes the
``/tmp/perf-PID.map`` that perf reads for JIT code (each function's address and size, from the
object code numba keeps for its cache), so it compiles everything afresh in an empty numba cache
of its own (about a minute and a half) and needs ``perf`` on the machine. Functions that numba
inlines are counted in their caller (``play.play_out`` holds the legal plays, the observation
upkeep, the tricks and the draws' bookkeeping).

Example:
    python scripts/profile_engine.py                                  # greedy self-play, ordinary
    python scripts/profile_engine.py --variant rubicon --hands 200000
    python scripts/profile_engine.py --policy expert --policy learned --hands 100
"""
from __future__ import annotations

import argparse
import os
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from pathlib import Path

# the groups, first match wins: (label, substrings of "module.function")
GROUPS = [
    ("exact second stage (endgame solver)", ("engine.endgame.",)),
    ("policy: network and features", ("policies.network.", "policies.features.", "policies.learned")),
    ("policy: its own code", ("policies.",)),
    ("declaration window: legal declarations and claims", ("hand._window_actions", "engine.melds.",
                                                          "engine.copies.", "engine.combos.",
                                                          "engine.portland.", "engine.carte.")),
    ("table moves (declared cards, second stage)", ("engine.state.table_", "engine.state._add_table",
                                                   "engine.state.take_table_back")),
    ("draws and the second stage's start", ("hand._draw_round", "hand._after_draws", "tracking.")),
    ("deal (shuffle, hands, policies' streams)", ("engine.rng.", "engine.deals.", "hand.deal_into",
                                                  "batch.deal_hand", "batch.seed_policies")),
    ("records and tallies", ("batch.write_record", "engine.tally_kernel.", "engine.game_score.",
                             "run_batch")),
    ("play loop: legal plays, observations, tricks (play_out)", ("engine.play.",)),
    ("search: sampling worlds, roll-outs", ("engine.observe.", "policies.expert", "engine.state.copy_into",
                                            "engine.hand.apply_once")),
]


def demangle(name: str) -> str:
    """``module.function`` of a numba symbol (``_ZN8analyzer6engine4play8play_outB...``)."""
    if not name.startswith("_ZN"):
        return name
    parts, s = [], name[3:]
    while s and s[0].isdigit():
        digits = len(s) - len(s.lstrip("0123456789"))
        n = int(s[:digits])
        parts.append(s[digits:digits + n])
        s = s[digits + n:]
    return ".".join(parts) or name


def write_perf_map(path: Path) -> int:
    """Write perf's map of every numba function loaded in this process; returns how many."""
    import gc

    from numba.core.registry import CPUDispatcher
    libraries = {}
    for obj in gc.get_objects():
        if isinstance(obj, CPUDispatcher):
            for cres in obj.overloads.values():
                libraries[id(cres.library)] = cres.library
    symbols = {}
    with tempfile.TemporaryDirectory() as tmp:
        for k, library in enumerate(libraries.values()):
            try:
                blob = library._get_compiled_object()       # there when compiled in this process
            except RuntimeError:
                continue
            obj = Path(tmp) / f"{k}.o"
            obj.write_bytes(blob)
            listing = subprocess.run(["nm", "-S", "--defined-only", str(obj)], capture_output=True,
                                     text=True).stdout
            engine = library._codegen._engine
            for line in listing.splitlines():
                fields = line.split()
                if len(fields) == 4 and fields[2] in "tTwW":
                    address = engine.get_function_address(fields[3])
                    if address:
                        symbols[address] = (int(fields[1], 16), demangle(fields[3]))
    with open(path, "w") as fh:
        for address, (size, name) in sorted(symbols.items()):
            fh.write(f"{address:x} {size:x} {name}\n")
    return len(symbols)


def group_of(symbol: str) -> str:
    """The label of the group a function belongs to."""
    for label, keys in GROUPS:
        if any(k in symbol for k in keys):
            return label
    return "other (Python, the allocator, the driver)"


def shares(data: Path) -> dict[str, float]:
    """Each symbol's share of the samples in ``data`` (perf report)."""
    out = subprocess.run(["perf", "report", "-i", str(data), "--sort", "symbol", "--stdio"],
                         capture_output=True, text=True).stdout
    result = {}
    for line in out.splitlines():
        fields = line.split()
        if len(fields) >= 3 and fields[0].endswith("%") and fields[1] == "[.]":
            result[fields[2]] = result.get(fields[2], 0.0) + float(fields[0][:-1]) / 100
    return result


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--variant", default="ordinary")
    ap.add_argument("--policy", action="append", default=None,
                    help="seat 0, then seat 1 … (default greedy at every seat)")
    ap.add_argument("--hands", type=int, default=400_000)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--top", type=int, default=12, help="how many single functions to list")
    args = ap.parse_args()
    if shutil.which("perf") is None:
        sys.exit("profile_engine: needs Linux perf (the 'perf' command) on this machine")
    if "PROFILE_ENGINE_CHILD" not in os.environ:        # compile afresh, in a cache of our own
        with tempfile.TemporaryDirectory() as cache:
            env = dict(os.environ, NUMBA_CACHE_DIR=cache, PROFILE_ENGINE_CHILD="1")
            sys.exit(subprocess.run([sys.executable, *sys.argv], env=env).returncode)

    t0 = time.perf_counter()                    # the imports compile the policies
    sys.path.insert(0, str(Path(__file__).resolve().parent))
    from minimal_hand import minimal_hands

    from analyzer.policies.spec import resolve_policy
    from analyzer.rules import preset
    from analyzer.studies.play.simulate import simulate
    rules = preset(args.variant)
    names = args.policy or ["greedy"]
    names = names * rules.players if len(names) == 1 else names
    specs = [resolve_policy(n) for n in names]
    simulate(rules, specs, 100, args.seed, threads=1)
    minimal_hands(args.seed, 100)
    print(f"warm-up (compiling) {time.perf_counter() - t0:.0f} s; {write_perf_map(Path(f'/tmp/perf-{os.getpid()}.map'))} "
          f"functions mapped")
    t0 = time.perf_counter()
    minimal_hands(args.seed, 200_000)
    floor_us = (time.perf_counter() - t0) / 200_000 * 1e6
    with tempfile.TemporaryDirectory() as tmp:
        data = Path(tmp) / "perf.data"
        perf = subprocess.Popen(["perf", "record", "-F", "2000", "-p", str(os.getpid()), "-o", str(data)],
                                stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        time.sleep(1.0)                          # perf attached
        t0 = time.perf_counter()
        simulate(rules, specs, args.hands, args.seed, threads=1)
        elapsed = time.perf_counter() - t0
        perf.send_signal(signal.SIGINT)
        perf.wait()
        by_symbol = shares(data)
    Path(f"/tmp/perf-{os.getpid()}.map").unlink(missing_ok=True)
    per_hand = elapsed / args.hands * 1e6
    total = sum(by_symbol.values()) or 1.0
    groups: dict[str, float] = {}
    for symbol, share in by_symbol.items():
        groups[group_of(symbol)] = groups.get(group_of(symbol), 0.0) + share / total
    print(f"{args.variant} {' vs '.join(names)}: {args.hands:,} hands, {per_hand:.2f} µs a hand "
          f"({args.hands / elapsed:,.0f} hands/s under perf); the minimal hand loop {floor_us:.2f} µs")
    print(f"{'what it does':58s} {'share':>6s} {'µs/hand':>8s}")
    for label, share in sorted(groups.items(), key=lambda kv: -kv[1]):
        print(f"{label:58s} {share:6.1%} {share * per_hand:8.2f}")
    print(f"\nthe {args.top} costliest functions (self time):")
    for symbol, share in sorted(by_symbol.items(), key=lambda kv: -kv[1])[:args.top]:
        print(f"  {share / total:6.1%}  {symbol}")


if __name__ == "__main__":
    main()
