"""Calls to a compiled kernel by its address, so that the caller's machine code does not hold the
callee's again.

numba links a callee's code into every function that calls it and generates machine code for
all of it, at each level of a call chain: the search (policies/expert.py) paid its roll-out, the
engine's state machine and the players again at each of its four levels (docs/performance.md,
"Calls by address"). :func:`by_address` compiles the callee once for one signature, registers
its entry point with LLVM under a name of its own (``llvmlite.binding.add_symbol``), and returns
an intrinsic that calls that name with numba's calling convention (exceptions pass through as
in a plain call). The caller's machine code names the symbol only, so it caches as any kernel
does, and a process that loads it from the cache resolves the name when it loads it: the module
that makes the intrinsic must run :func:`by_address` before any kernel calling it is compiled or
loaded, which defining the intrinsic before its callers in the same module does.

A changed callee cannot leave a stale caller behind: a change to any source of the engine or
the policies drops the whole cache (engine/__init__.py).
"""
from __future__ import annotations

import hashlib

import llvmlite.binding as llvm
from numba.core import cgutils
from numba.extending import intrinsic


def symbol_name(dispatcher, argtypes: tuple) -> str:
    """The callee's symbol: its module, name and argument types, the same in every process."""
    func = dispatcher.py_func
    digest = hashlib.sha256(repr(argtypes).encode()).hexdigest()[:16]
    return f"bezique.{func.__module__}.{func.__qualname__}.{digest}"


def by_address(dispatcher, *argtypes):
    """An intrinsic calling ``dispatcher`` compiled for ``argtypes`` through its registered
    address (module docstring). Its arguments convert to ``argtypes`` as a plain call's would;
    it returns what the callee returns."""
    if not hasattr(dispatcher, "overloads"):      # NUMBA_DISABLE_JIT: kernels are plain Python functions
        return dispatcher
    argtypes = tuple(argtypes)
    if argtypes not in dispatcher.overloads:      # a kernel of explicit signatures compiles no more
        dispatcher.compile(argtypes)
    result = dispatcher.overloads[argtypes]
    sig, fndesc = result.signature, result.fndesc
    name = symbol_name(dispatcher, argtypes)
    llvm.add_symbol(name, result.library.get_pointer_to_function(fndesc.mangled_name))

    def codegen(context, builder, _signature, args):
        fnty = context.call_conv.get_function_type(sig.return_type, sig.args)
        fn = cgutils.get_or_insert_function(builder.module, fnty, name)
        status, value = context.call_conv.call_function(builder, fn, sig.return_type, sig.args, list(args))
        with cgutils.if_unlikely(builder, status.is_error):
            context.call_conv.return_status_propagate(builder, status)
        return value

    def typer(typingctx, *given):
        if len(given) != len(sig.args) or any(typingctx.can_convert(g, t) is None for g, t in zip(given, sig.args)):
            return None
        return sig, codegen

    params = ", ".join(f"a{i}" for i in range(len(argtypes)))
    namespace: dict = {}
    # intrinsic takes a typer of fixed arity (a star-argument typer lowers its arguments as a tuple)
    exec(f"def {dispatcher.py_func.__name__}(typingctx, {params}):\n    return typer(typingctx, {params})\n",
         {"typer": typer}, namespace)
    return intrinsic(namespace[dispatcher.py_func.__name__])
