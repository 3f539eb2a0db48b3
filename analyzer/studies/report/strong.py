"""The report's strong player and how much it plays (:class:`StrongPlay`; its defaults are the
options' defaults of ``bezique report``)."""
from __future__ import annotations

from dataclasses import dataclass

# the band's other players first play 1 / BAND_FIRST_PART of the headline player's hands: in the
# ordinary game their verdicts at 4,000 hands were those at 16,000 (docs/performance.md)
BAND_FIRST_PART = 4


@dataclass(frozen=True)
class StrongPlay:
    """The study's strong player: its self-play is the headline pairing (``hands`` hands), it
    plays each head-to-head heuristic on ``deals`` deals (each in every seating), and the hints'
    worth is measured against it (``ablation_deals`` deals per hint; 0: not measured). ``band``:
    other strong players, trained apart from it, each in self-play on the same ``hands`` deals,
    so that the headline figures come as a band over the strong players (report's strong_band).
    The band's other players first play :attr:`band_first` of those deals; they play all
    ``hands`` only where a figure that these left open could still be settled by them
    (report study's band stage, band_table.band_needs_more)."""

    policy: str = "learned"
    hands: int = 16_000
    deals: int = 4_000
    ablation_deals: int = 1_000
    band: tuple[str, ...] = ()

    @property
    def band_first(self) -> int:
        """The deals each of the band's other players plays first: a quarter of ``hands``."""
        return max(1, self.hands // BAND_FIRST_PART)

    @property
    def players(self) -> tuple[str, ...]:
        """Every strong player in self-play: the headline one first, then the band's."""
        return (self.policy, *self.band)
