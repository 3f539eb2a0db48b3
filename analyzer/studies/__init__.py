"""The studies: each sub-package answers one question a player or an analyst asks, by playing
hands (the runs of :mod:`analyzer.run`) and turning them into tables, charts and words.

- :mod:`.play`: what happens when these players play, and which of two is stronger (simulate,
  whole games, compare, ratings);
- :mod:`.odds`: how likely a combination is at the deal, or given the cards a seat holds (exact
  fractions beside simulated frequencies);
- :mod:`.value`: what a holding, or a dealt card, is worth under strong play;
- :mod:`.hints`: the rulebook's hints against strong play, each hint's worth and the tuning of
  their weights;
- :mod:`.position`: what to play in a position (every legal action valued by a search);
- :mod:`.report`: the main job's study, written as report.md with every table and chart.

The published studies of results/ are above these, in :mod:`analyzer.published`.
"""
