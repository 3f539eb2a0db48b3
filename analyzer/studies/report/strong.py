"""The report's strong player and how much it plays (:class:`StrongPlay`; its defaults are the
options' defaults of ``bezique report``)."""
from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class StrongPlay:
    """The study's strong player: its self-play is the headline pairing (``hands`` hands), it
    plays each head-to-head heuristic on ``deals`` deals (each in every seating), and the hints'
    worth is measured against it (``ablation_deals`` deals per hint; 0: not measured). ``band``:
    other strong players, trained apart from it, each in self-play on the same ``hands`` deals,
    so that the headline figures come as a band over the strong players (report's strong_band)."""

    policy: str = "learned"
    hands: int = 16_000
    deals: int = 4_000
    ablation_deals: int = 1_000
    band: tuple[str, ...] = ()

    @property
    def players(self) -> tuple[str, ...]:
        """Every strong player in self-play: the headline one first, then the band's."""
        return (self.policy, *self.band)
