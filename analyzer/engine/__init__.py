"""Numba kernels only: state arrays, deal, legal moves, tricks, melds, one hand.

Nothing here imports pandas, matplotlib or click (DESIGN.md).
"""
