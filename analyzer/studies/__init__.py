"""The studies a notebook or a command runs: simulate, compare, whole games, the report, the
deal-time odds, the hint-weight tuning and position analysis."""
