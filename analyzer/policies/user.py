"""User policies: ``--policy path/to/file.py:function``.

The function must have the policy signature (docs/policies.md, "The policy signature"): seven
arguments, the last the seat's data; a function of the first six alone is taken too (wrapped in
one that passes the data by). It is compiled once with that explicit signature; the simulator
takes policies as first-class functions, so a new policy never recompiles the simulator.
"""
from __future__ import annotations

import hashlib
import importlib.util
import inspect
import sys
import threading
import time
from pathlib import Path

import numba
import numpy as np

from ..engine import api
from ..engine.policy_data import POLICY_SIG, new_params, new_seat_data
from ..errors import BeziqueError
from ..rules import preset, shown
from ..stop import WAKE_EVERY, check_stop
from .spec import PolicyError, PolicySpec, is_user_policy, register

PARAM_NAMES = ("obs", "legal", "n_legal", "rules", "params", "rng", "data")


class UserPolicyError(BeziqueError, ValueError):
    """A policy file that does not load, or a function with the wrong signature."""


def load_user_policy(ref: str):
    """Load and compile ``file.py:function``; return the compiled policy."""
    path, _, name = ref.rpartition(":")
    if not name.isidentifier():
        raise UserPolicyError(f"{ref!r}: expected FILE.py:FUNCTION")
    file = Path(path)
    if not file.is_file():
        raise UserPolicyError(f"policy file not found: {path}")
    mod_name = "bezique_user_policy_" + hashlib.sha1(str(file.resolve()).encode()).hexdigest()[:12]
    spec = importlib.util.spec_from_file_location(mod_name, file)
    module = importlib.util.module_from_spec(spec)
    sys.modules[mod_name] = module
    try:
        spec.loader.exec_module(module)
    except (Exception, SystemExit) as e:  # any error in the user's file, sys.exit() included
        raise UserPolicyError(f"cannot load {path}: {type(e).__name__}: {e}") from None
    func = getattr(module, name, None)
    if func is None:
        raise UserPolicyError(f"{path} has no function {name!r}")
    py = getattr(func, "py_func", func)
    if not inspect.isfunction(py):
        raise UserPolicyError(f"{path}:{name} is not a function")
    params = list(inspect.signature(py).parameters)
    if len(params) not in (len(PARAM_NAMES), len(PARAM_NAMES) - 1):
        raise UserPolicyError(
            f"{path}:{name} takes {len(params)} arguments; a policy takes 7: {', '.join(PARAM_NAMES)} "
            "(or the first 6)")
    return _compile_checked(py, f"{path}:{name}", len(params))


SAMPLE_SECONDS = 2.0     # how long the plain-Python trial of a policy may take before it is skipped


def _check_sample_return(py, ref: str) -> None:
    """Run ``py`` as plain Python at the first decision of a sample hand: an integer there that
    64 bits cannot hold (``2**70``) would wrap round to some action once compiled, so it is
    refused now. A trial that raises or takes over SAMPLE_SECONDS proves nothing and is let
    be (the compiled run reports its errors)."""
    rules = preset("ordinary").to_array()
    st = api.deal(rules, 1, 0)
    s = api.to_act(st)
    n, _ = api.legal_actions(rules, st)
    api.observe(rules, st, s)
    args = (st.obs[s].copy(), st.legal.copy(), n, rules, new_params(), st.rngs[s].copy(), new_seat_data())
    args = args[:len(inspect.signature(py).parameters)]
    box = []

    def trial():
        try:
            box.append(py(*args))
        except BaseException:       # noqa: BLE001 (any failure: the compiled run will report it)
            pass

    thread = threading.Thread(target=trial, daemon=True)
    thread.start()
    deadline = time.monotonic() + SAMPLE_SECONDS
    while thread.is_alive() and time.monotonic() < deadline:
        check_stop()                     # a Ctrl-C lost inside the compile just before
        thread.join(WAKE_EVERY)
    if not box:
        return
    value = box[0]
    if isinstance(value, bool) or not isinstance(value, (int, np.integer)) or not -2**63 <= int(value) < 2**63:
        raise UserPolicyError(f"{ref} returned {shown(value)} at the first decision of a sample hand, which is "
                              "no action: a policy returns one of the legal actions it is given (legal[i])")


def _compile_checked(py, ref: str, n_args: int):
    """Compile ``py`` (of ``n_args`` arguments: 7, or 6 without the seat's data) as a policy
    with bounds checking (an out-of-range read is an IndexError, never a crash or a garbage
    action), refusing a return type that is not an integer (a float would be cut to some
    action)."""
    checked = numba.njit(_nrt=False, boundscheck=True)(py)
    args = POLICY_SIG.args[:n_args]
    try:
        checked.compile(args)
        returns = checked.overloads[args].signature.return_type
        if not isinstance(returns, (numba.types.Integer, numba.types.IntegerLiteral)) or \
                isinstance(returns, (numba.types.Boolean, numba.types.BooleanLiteral)):
            raise UserPolicyError(f"{ref} returns {returns}, not an integer: a policy returns one of "
                                  "the legal actions it is given (legal[i])")
        _check_sample_return(py, ref)
        if n_args < len(POLICY_SIG.args):
            return _with_data(checked)
        if returns == numba.types.int64:
            checked.disable_compile()    # typed as the policy function type, as an explicit signature is:
            return checked               # a lazy dispatcher at every seat is a tuple the kernel does not take
        return numba.njit(POLICY_SIG, _nrt=False, boundscheck=True)(py)
    except UserPolicyError:
        raise
    except Exception as e:
        first = str(e).strip().splitlines()
        detail = next((ln for ln in first if ln.strip() and "Failed in" not in ln), first[0] if first else "")
        raise UserPolicyError(
            f"{ref} does not compile as a policy "
            f"(obs int32[:], legal int32[:], n_legal int64, rules int64[:], params (a settings record), "
            f"rng uint64[:], data SeatData -> int64): {detail.strip()}") from None


def _with_data(six):
    """A policy of the full signature that calls ``six`` (a compiled policy of the first six
    arguments) and passes the seat's data by."""
    @numba.njit(POLICY_SIG, _nrt=False, boundscheck=True)
    def policy(obs, legal, n_legal, rules, params, rng, data):
        return six(obs, legal, n_legal, rules, params, rng)
    return policy


def user_spec(name: str) -> PolicySpec:
    """The PolicySpec of ``path/to/file.py:function`` (PolicyError naming the file if it cannot
    be used)."""
    try:
        path, _, function = name.rpartition(":")
        return PolicySpec(name, load_user_policy(name), description="user policy",
                          source=f"{Path(path).resolve()}:{function}")
    except UserPolicyError as e:
        raise PolicyError(str(e)) from None


register("file.py:function", user_spec, settings=False, matches=is_user_policy, listed=False)
