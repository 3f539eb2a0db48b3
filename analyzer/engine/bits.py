"""Bit-level helpers the kernels need and numba does not offer (LLVM intrinsics)."""
from llvmlite import ir
from numba import types
from numba.extending import intrinsic


@intrinsic
def mul_high(typingctx, a, b):
    """The high 64 bits of the 128-bit product of two uint64 (one ``mul`` instruction)."""
    sig = types.uint64(types.uint64, types.uint64)

    def codegen(context, builder, signature, args):
        wide = ir.IntType(128)
        product = builder.mul(builder.zext(args[0], wide), builder.zext(args[1], wide))
        return builder.trunc(builder.lshr(product, ir.Constant(wide, 64)), ir.IntType(64))

    return sig, codegen


@intrinsic
def trailing_zeros(typingctx, x):
    """Index of the lowest set bit of an int64 (one ``tzcnt``); undefined for 0."""
    sig = types.int64(types.int64)

    def codegen(context, builder, signature, args):
        return builder.cttz(args[0], ir.Constant(ir.IntType(1), 1))

    return sig, codegen


@intrinsic
def popcount(typingctx, x):
    """Number of set bits of an int64 (one ``popcnt``)."""
    sig = types.int64(types.int64)

    def codegen(context, builder, signature, args):
        return builder.ctpop(args[0])

    return sig, codegen


@intrinsic
def high_bit(typingctx, x):
    """Index of the highest set bit of an int64; undefined for 0."""
    sig = types.int64(types.int64)

    def codegen(context, builder, signature, args):
        lz = builder.ctlz(args[0], ir.Constant(ir.IntType(1), 1))
        return builder.sub(ir.Constant(ir.IntType(64), 63), lz)

    return sig, codegen

