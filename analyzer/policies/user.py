"""User policies: ``--policy path/to/file.py:function``.

The function must have the policy signature (docs/policies.md, "The policy signature"). It is compiled
once with that explicit signature; the simulator takes policies as first-class
functions, so a new policy never recompiles the simulator.
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
from ..engine.layout import POLICY_SIG
from ..rules import preset, shown
from ..stop import WAKE_EVERY, check_stop
from .params import new_params

PARAM_NAMES = ("obs", "legal", "n_legal", "rules", "params", "rng")


class UserPolicyError(ValueError):
    """A policy file that does not load, or a function with the wrong signature."""


def is_user_policy(ref: str) -> bool:
    """Whether ``ref`` names a function in a .py file (``file.py:function``)."""
    path, sep, name = ref.rpartition(":")
    return bool(sep) and path.endswith(".py")


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
    if len(params) != len(PARAM_NAMES):
        raise UserPolicyError(
            f"{path}:{name} takes {len(params)} arguments; a policy takes 6: {', '.join(PARAM_NAMES)}")
    return _compile_checked(py, f"{path}:{name}")


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
    args = (st.obs[s].copy(), st.legal.copy(), n, rules, new_params(), st.rngs[s].copy())
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


def _compile_checked(py, ref: str):
    """Compile ``py`` as a policy with bounds checking (an out-of-range read is an IndexError,
    never a crash or a garbage action), refusing a return type that is not an integer (a
    float would be cut to some action)."""
    checked = numba.njit(_nrt=False, boundscheck=True)(py)
    try:
        checked.compile(POLICY_SIG.args)
        returns = checked.overloads[POLICY_SIG.args].signature.return_type
        if not isinstance(returns, (numba.types.Integer, numba.types.IntegerLiteral)) or \
                isinstance(returns, (numba.types.Boolean, numba.types.BooleanLiteral)):
            raise UserPolicyError(f"{ref} returns {returns}, not an integer: a policy returns one of "
                                  "the legal actions it is given (legal[i])")
        _check_sample_return(py, ref)
        if returns == numba.types.int64:
            return checked
        return numba.njit(POLICY_SIG, _nrt=False, boundscheck=True)(py)
    except UserPolicyError:
        raise
    except Exception as e:
        first = str(e).strip().splitlines()
        detail = next((ln for ln in first if ln.strip() and "Failed in" not in ln), first[0] if first else "")
        raise UserPolicyError(
            f"{ref} does not compile as a policy "
            f"(obs int32[:], legal int32[:], n_legal int64, rules int64[:], params float64[:], "
            f"rng uint64[:] -> int64): {detail.strip()}") from None
