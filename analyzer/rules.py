"""RuleSet: every option of docs/rules.md as plain data, and the presets.

The numba kernels never see a preset name: :meth:`RuleSet.to_array` packs the
options into a small int64 array whose slots are the ``R_*`` constants below.
"""
from __future__ import annotations

from dataclasses import asdict, dataclass, fields, replace

import numpy as np

from .errors import BeziqueError

# Slots of the packed rule array read by the engine.
(R_PLAYERS, R_PACKS, R_HAND, R_TURNUP, R_TRUMP_MODE, R_DECLARE_ALL, R_AMERICAN,
 R_REDECLARE, R_SEVEN, R_LAST_TRICK, R_BRISQUES_SCORED, R_PLAIN_SEQ,
 R_CARTE_BLANCHE, R_CLAIMS, R_N_CARDS, R_SEVEN_POINTS, R_BRISQUE_POINTS, R_RUBICON_LIMIT,
 R_RUBICON_BONUS, R_GAME_BONUS, R_SCORE_UNIT, R_PANACHE, R_FIXED_POINT, R_PARTNER_DECLARES,
 R_TARGET) = range(25)
# R_FIXED_POINT: the game target when a player may claim the game (V3), 0 when not
R_GAME_MINIMUM, R_RUBICON_MINIMUM = 25, 26  # R3.9: the least difference (Law 57), rubiconed score (Law 59)
# Points of each combination id (see cards.COMBO_NAMES) start at R_POINTS.
R_POINTS = 28
R_ROYAL_POINTS = R_POINTS + 16      # a marriage in trumps
R_TRUMP_SEQ_POINTS = R_POINTS + 17  # a sequence in trumps
R_CARTE_POINTS = R_POINTS + 18      # carte blanche (R3.5)
# A deal given in part (``given_deal``, analyzer/given_deal.py): a seat's held cards and the turn-up dealt
# as named, the rest of the pack shuffled fairly. R_DEAL_N 0 and R_DEAL_TURN_UP -1: a fair deal.
R_DEAL_SEAT = R_POINTS + 19         # the seat that holds the cards
R_DEAL_N = R_POINTS + 20            # how many cards it holds (0: none named)
R_DEAL_TURN_UP = R_POINTS + 21      # the turn-up (-1: not named)
R_DEAL_CARDS = R_POINTS + 22        # MAX_HELD: the held cards' types
MAX_HELD = 12
R_SIZE = R_DEAL_CARDS + MAX_HELD

TRUMP_TURN_UP, TRUMP_FIRST_MARRIAGE, TRUMP_RUBICON = 0, 1, 2
REDECLARE = {"higher": 0, "same_or_higher": 1, "replace": 2, "portland": 3}
TRUMP_MODES = {"turn_up": TRUMP_TURN_UP, "first_marriage": TRUMP_FIRST_MARRIAGE,
               "marriage_or_sequence": TRUMP_RUBICON}
CARTE_BLANCHE = {"off": 0, "once": 1, "repeat": 2}


class RuleError(BeziqueError, ValueError):
    """A rule set that is not valid or not supported."""


POINTS = (0, 100_000)
NUMBERS = {             # each whole-number option: its lowest and highest value
    "players": (2, 4), "packs": (2, 4), "hand_size": (8, 10), "last_trick": POINTS, "plain_sequence": POINTS,
    "target": (1000, 2000), "seven_points": POINTS, "brisque_points": POINTS, "rubicon_limit": POINTS,
    "rubicon_bonus": POINTS, "game_bonus": POINTS, "score_unit": (1, 100_000),
    "game_minimum": POINTS, "rubicon_minimum": POINTS,
}
WORDS = {               # each option that is a word: the words it takes
    "trump": tuple(TRUMP_MODES), "meld_reuse": ("french", "american"), "redeclare": tuple(REDECLARE),
    "brisques": ("scored", "tiebreak"), "carte_blanche": tuple(CARTE_BLANCHE),
}
SHORT_EIGHT = 30        # V4: three players with two packs throw out one eight, the eight of clubs


def shown(value, limit: int = 60) -> str:
    """``repr(value)`` for a message, cut to ``limit`` characters (a value from a file or the
    command line may be huge; an int of more than 4300 digits has no repr at all)."""
    try:
        text = repr(value)
    except ValueError:
        return "a number too long to show"
    return text if len(text) <= limit else text[:limit - 3] + "..."


def check_value(key: str, value) -> None:
    """RuleError naming the option and the values it takes, unless ``value`` is one of them:
    true/false for a switch, a whole number in range, or one of the option's words."""
    if key in WORDS:
        if not isinstance(value, str) or value not in WORDS[key]:
            raise RuleError(f"{key}={shown(value)}: use one of {', '.join(WORDS[key])}")
    elif key in NUMBERS:
        lo, hi = NUMBERS[key]
        if isinstance(value, bool) or not isinstance(value, int) or not lo <= value <= hi:
            raise RuleError(f"{key}={shown(value)}: use a whole number from {lo} to {hi}")
    elif not isinstance(value, bool):
        raise RuleError(f"{key}={shown(value)}: use true or false")


def check_whole_rounds(n_cards: int, players: int, hand_size: int) -> None:
    """Section 4: the cards left after the deal (talon and turn-up) must split into whole
    rounds of one draw per player; RuleError otherwise."""
    left = n_cards - players * hand_size
    if left <= 0 or left % players:
        raise RuleError(f"{n_cards} cards, {players} players with {hand_size} cards each: the "
                        f"{left} cards left do not split into whole rounds of {players} draws")


@dataclass(frozen=True)
class RuleSet:
    """One variant of bézique: every option docs/rules.md names.

    Build one from a preset with :func:`preset` and change options with
    :meth:`with_options`; :meth:`validate` rejects unsupported combinations.
    """

    name: str = "ordinary"
    players: int = 2            # R2.1; 3 (V4, each for himself), 4 (V5, partners 0+2 against 1+3)
    packs: int = 2              # R1.2: 2 or 3 (V7); Rubicon 4; V4 2 (less an eight) or 3; V5 2 or 4
    hand_size: int = 8          # R2.1/V6: 8, 9 or 10
    trump: str = "turn_up"      # turn_up (R2.1) | first_marriage (V1) | marriage_or_sequence (R3.2)
    declare_all: bool = False   # R2.16 option
    meld_reuse: str = "french"  # french (R2.13) | american (R2.17)
    redeclare: str = "higher"   # higher (R2.14) | portland (R3.6, Laws 33-39) | replace | same_or_higher (earlier readings)
    seven_scores: bool = True   # R2.2, R2.9, R2.10
    last_trick: int = 10        # R2.21 (Rubicon 50)
    brisques: str = "scored"    # scored (R2.22) | tiebreak (R3.8)
    plain_sequence: int = 0     # 0: not a combination; Rubicon 150
    carte_blanche: str = "off"  # off | repeat (R3.5) | once
    claims: bool = False        # R3.7 "and - to score"
    panache: bool = False       # V2: a four counts only of four different suits
    fixed_point: bool = False   # V3: a player who has reached the target may claim the game
    partner_declares: bool = False  # V5 option: the trick winner or his partner declares
    target: int = 1000          # R2.24 (V4: 2000)
    seven_points: int = 10      # R2.2, R2.9, R2.10: the seven of trumps
    brisque_points: int = 10    # R2.22 (R3.8: ties and rubicons only): each ace and ten won
    rubicon_limit: int = 1000   # R3.9: the loser under it, even with his brisques, is rubiconed
    rubicon_bonus: int = 1300   # R3.9: for the rubicon (1000) and the brisques (320, in 100s)
    game_bonus: int = 500       # R3.9: for a game won without a rubicon
    score_unit: int = 100       # R3.9: game scores disregard fractions of this
    game_minimum: int = 100     # R3.9 (Law 57): a smaller difference of the totals counts as this
    rubicon_minimum: int = 100  # R3.9 (Law 59): a smaller score of a rubiconed loser counts as this

    @property
    def is_rubicon(self) -> bool:
        """Whether a hand is one Rubicon game (R3.8-R3.9: brisques only break ties and save
        rubicons) rather than a hand of the ordinary game."""
        return self.brisques == "tiebreak"

    @property
    def n_cards(self) -> int:
        """Total cards in play: 32 per pack (V4: 63, two packs less an eight)."""
        return 32 * self.packs - self.short_pack

    @property
    def short_pack(self) -> bool:
        """Whether one eight (SHORT_EIGHT) is thrown out: three players with two packs (V4)."""
        return self.players == 3 and self.packs == 2

    def copies(self, card: int) -> int:
        """How many copies of card type ``card`` the deck holds."""
        return self.packs - (self.short_pack and card == SHORT_EIGHT)

    @property
    def sides(self) -> int:
        """The sides that score: each player, or two partnerships with four players (V5)."""
        return 2 if self.players == 4 else self.players

    def with_options(self, **options) -> "RuleSet":
        """Return a copy with some options changed (validated)."""
        known = {f.name for f in fields(self)} - {"name"}
        for key in options:
            if key == "name":
                raise RuleError("the variant is not a rule option: choose it with --variant "
                                "(a replay file's \"variant\")")
            if key not in known:
                raise RuleError(f"unknown rule option {shown(key)}; known: {', '.join(sorted(known))}")
            check_value(key, options[key])
        if options.get("trump", "turn_up") != "turn_up" and "seven_scores" not in options:
            options = {**options, "seven_scores": False}    # no turn-up, no seven of trumps (V1)
        rs = replace(self, **options)
        rs.validate()
        return rs

    def validate(self) -> None:
        """Raise :class:`RuleError` naming the first unsupported option."""
        for f in fields(self):
            if f.name != "name":
                check_value(f.name, getattr(self, f.name))
        self._check_variants()
        if self.packs not in (2, 3, 4):
            raise RuleError(f"packs={self.packs}: use 2 or 3 packs (ordinary) or 4 (Rubicon)")
        if self.hand_size not in (8, 9, 10):
            raise RuleError(f"hand_size={self.hand_size}: use 8, 9 or 10 (R2.1, V6)")
        if self.target not in (1000, 1500, 2000):
            raise RuleError(f"target={self.target}: use 1000, 1500 or 2000 (R2.24)")
        if self.seven_scores and self.trump != "turn_up":
            raise RuleError("seven-of-trumps scores need a turned-up trump (R3.4, V1): "
                            f"trump={self.trump} and seven_scores=true do not go together")
        if self.name != "rubicon" and (self.claims or self.carte_blanche != "off" or self.plain_sequence):
            raise RuleError("claims, carte blanche and plain sequences belong to Rubicon bézique (R3.5-R3.7)")
        if self.meld_reuse == "american" and self.redeclare != "higher":
            raise RuleError("meld_reuse=american is an option of the ordinary game, not of Rubicon")
        check_whole_rounds(self.n_cards, self.players, self.hand_size)

    def _check_variants(self) -> None:
        """The variants of docs/rules.md section 4, and the options that do not go together:
        the message names both."""
        rubicon = self.name == "rubicon"
        if rubicon and (self.packs != 4 or self.hand_size != 9 or self.trump != "marriage_or_sequence"):
            raise RuleError("Rubicon bézique is four packs, nine cards, no turn-up (R1.2, R3.1)")
        if rubicon and self.players != 2:
            raise RuleError(f"players={self.players} and the rubicon variant: Rubicon bézique is "
                            "two-handed (R3.9 scores one player against the other)")
        if not rubicon and self.trump == "marriage_or_sequence":
            raise RuleError("trump=marriage_or_sequence is Rubicon's (R3.2); without a turn-up the "
                            "ordinary game fixes trumps by the first marriage: trump=first_marriage (V1)")
        if self.packs == 4 and self.players == 2 and not rubicon:
            raise RuleError("packs=4 with players=2 is Rubicon bézique (no turn-up, R3.1): "
                            "use --variant rubicon")
        if self.players == 3 and self.packs not in (2, 3):
            raise RuleError(f"players=3 and packs={self.packs}: three-handed bézique (V4) is two "
                            "packs less an eight (63 cards) or three packs (96)")
        if self.players == 4 and self.packs not in (2, 4):
            raise RuleError(f"players=4 and packs={self.packs}: four-handed bézique (V5) is two "
                            "packs or four")
        if self.fixed_point and self.players != 2:
            raise RuleError(f"fixed_point=true and players={self.players}: the game limited to a "
                            "fixed point (V3) is two-handed (a wrong claim gives his opponent the game)")
        if self.fixed_point and self.brisques != "scored":
            raise RuleError("fixed_point=true and brisques=tiebreak: the fixed point (V3) counts "
                            "brisques in the claim; Rubicon's claims are another rule (R3.7)")
        if self.partner_declares and self.players != 4:
            raise RuleError(f"partner_declares=true and players={self.players}: only four-handed "
                            "bézique (V5) has partners")

    def to_array(self) -> np.ndarray:
        """Pack the rule set into the int64 array the engine kernels read."""
        self.validate()
        a = np.zeros(R_SIZE, dtype=np.int64)
        a[R_PLAYERS] = self.players
        a[R_PACKS] = self.packs
        a[R_HAND] = self.hand_size
        a[R_TURNUP] = self.trump == "turn_up"
        a[R_TRUMP_MODE] = TRUMP_MODES[self.trump]
        a[R_DECLARE_ALL] = self.declare_all
        a[R_AMERICAN] = self.meld_reuse == "american"
        a[R_REDECLARE] = REDECLARE[self.redeclare]
        a[R_SEVEN] = self.seven_scores
        a[R_LAST_TRICK] = self.last_trick
        a[R_BRISQUES_SCORED] = self.brisques == "scored"
        a[R_PLAIN_SEQ] = self.plain_sequence
        a[R_CARTE_BLANCHE] = CARTE_BLANCHE[self.carte_blanche]
        a[R_CLAIMS] = self.claims
        a[R_N_CARDS] = self.n_cards
        a[R_SEVEN_POINTS] = self.seven_points
        a[R_BRISQUE_POINTS] = self.brisque_points
        a[R_RUBICON_LIMIT] = self.rubicon_limit
        a[R_RUBICON_BONUS] = self.rubicon_bonus
        a[R_GAME_BONUS] = self.game_bonus
        a[R_SCORE_UNIT] = self.score_unit
        a[R_GAME_MINIMUM] = self.game_minimum
        a[R_RUBICON_MINIMUM] = self.rubicon_minimum
        a[R_PANACHE] = self.panache
        a[R_FIXED_POINT] = self.target if self.fixed_point else 0
        a[R_PARTNER_DECLARES] = self.partner_declares
        a[R_TARGET] = self.target
        pts = [20] * 4 + [self.plain_sequence] * 4 + [40, 500, 1500, 4500] + [100, 80, 60, 40]
        a[R_POINTS:R_POINTS + 16] = pts
        a[R_ROYAL_POINTS] = 40
        a[R_TRUMP_SEQ_POINTS] = 250
        a[R_CARTE_POINTS] = 50
        a[R_DEAL_TURN_UP] = -1
        return a

    def describe(self) -> dict:
        """Return the options as a plain dict (for replay files and reports)."""
        return asdict(self)


PRESETS = {
    "ordinary": RuleSet(),
    "rubicon": RuleSet(name="rubicon", packs=4, hand_size=9, trump="marriage_or_sequence",
                       redeclare="portland", seven_scores=False, last_trick=50,
                       brisques="tiebreak", plain_sequence=150, carte_blanche="repeat",
                       claims=True),
    # the rulebook's other games (docs/rules.md section 4): options of the ordinary game
    "no_trump": RuleSet(name="no_trump", trump="first_marriage", seven_scores=False),   # V1
    "panache": RuleSet(name="panache", panache=True),                                   # V2
    "fixed_point": RuleSet(name="fixed_point", fixed_point=True),                       # V3
    "three_handed": RuleSet(name="three_handed", players=3, target=2000),               # V4
    "four_handed": RuleSet(name="four_handed", players=4),                              # V5
}


def preset(variant: str, /, **options) -> RuleSet:
    """Return the named preset (``ordinary`` …), with ``options`` applied."""
    if not isinstance(variant, str) or variant not in PRESETS:
        raise RuleError(f"unknown variant {shown(variant)}; known: {', '.join(sorted(PRESETS))}")
    return PRESETS[variant].with_options(**options) if options else PRESETS[variant]


def from_dict(d: dict) -> RuleSet:
    """Build a RuleSet from a replay file's ``rules`` object (``variant`` + options)."""
    if not isinstance(d, dict):
        raise RuleError("rules must be an object with a 'variant' and options")
    d = dict(d)
    variant = d.pop("variant", d.pop("name", "ordinary"))
    return preset(variant, **d)
