"""The rulebook's hints: how often strong play follows each and what following it is worth
(:mod:`.study`, :mod:`.verdicts`, :mod:`.patterns`: ``bezique hints``), each hint's worth when
it is switched off (:mod:`.worth`: ``bezique ablate`` and the report's hint worth), and the
search of their weights by CMA-ES (:mod:`.cmaes`, :mod:`.tune`, :mod:`.tune_output`:
``bezique tune``)."""
