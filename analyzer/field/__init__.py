"""Bézique in the field's own tools: an OpenSpiel game (:mod:`.openspiel_game`, registered with
pyspiel as ``bezique``), a PettingZoo AEC environment (:mod:`.pettingzoo_env`) and a Gymnasium
single-agent one (:mod:`.gym_env`), thin adapters over one engine-backed hand with chance nodes
(:mod:`.core`, :mod:`.views`, :mod:`.worlds`); the project's players as OpenSpiel bots
(:mod:`.bots`).

Nothing here is imported by ``import analyzer`` or by the main job: pyspiel, pettingzoo and
gymnasium (the ``field`` extra) are imported only by the adapter modules, on demand.
"""
