"""bezique-analyzer: a Monte Carlo strategy analyzer for bézique."""
