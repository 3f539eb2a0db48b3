"""What the library raises when the input cannot be used or a run cannot go on: every such
error is a :class:`BeziqueError`, whose message is one line a person can act on. The command
line prints that line and exits with the error's ``exit_code`` (1; a replay move that breaks a
rule, 2), never a traceback; a notebook catches ``BeziqueError``."""
from __future__ import annotations


class BeziqueError(Exception):
    """Bad input, or a run that cannot go on, said in one line (the message)."""

    exit_code = 1
