"""Tables: a run's tallies as pandas tables with 95 % intervals (a simulation, a study, whole games)."""
