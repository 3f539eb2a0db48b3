"""The engine's vocabulary: card names, combination classes and the rule ids of docs/rules.md.

Plain ints that numba folds into the kernels. A rule id is written as its name (``R2_20`` is
rule R2.20 and has the value 220), so that searching for ``R2_20`` finds the check and the
test named after it; :func:`analyzer.handlog.rule_name` turns a value back into ``R2.20``.
Points and limits are not here: they are data of the RuleSet (analyzer.rules).
"""
from ..cards import ACE, CLUBS, DIAMONDS, HEARTS, KING, KNAVE, QUEEN, SEVEN, SPADES, TEN  # noqa: F401

# --- cards (type = suit * 8 + rank) ----------------------------------------------------------
QS = SPADES * 8 + QUEEN          # the queen of spades and knave of diamonds: béziques
JD = DIAMONDS * 8 + KNAVE
COURT_LOW, COURT_HIGH = KING, KNAVE      # K, Q, J: the court cards (R3.5)

# --- combination classes (R2.11) and the ranks of the fours ---------------------------------
CLS_M, CLS_B, CLS_F = 0, 1, 2    # marriage < sequence; bézique < double < ...; a four
FOUR_RANKS = (ACE, KING, QUEEN, KNAVE)

# --- rule ids: the rule an illegal move breaks -----------------------------------------------
R2_3 = 203       # the seat to play
R2_4 = 204       # a card from the hand must be held
R2_6 = 206       # only the trick winner declares, right after the trick
R2_7 = 207       # a card played from the table must lie there
R2_9 = 209       # the exchange of the seven of trumps
R2_11 = 211      # a combination's cards must be held
R2_12 = 212      # a card from the hand in every declaration
R2_14 = 214      # within a class, only a higher combination
R2_15 = 215      # a card once in a four never again in a four of that rank
R2_16 = 216      # one declaration per trick won
R2_17 = 217      # American re-use: a bézique card joins no other class
R2_18 = 218      # no declaration or exchange after the last draw
R2_19 = 219      # table cards are taken back for the second stage
R2_20 = 220      # the second stage: follow, win, trump
R2_21 = 221      # the last trick ends the hand
R3_4 = 304       # Rubicon: no exchange of the seven
R3_5 = 305       # carte blanche
R3_6 = 306       # re-declaring (Rubicon)
R3_7 = 307       # "and - to score", one score per trick (Rubicon)
V2 = 902         # panache: a four of four different suits
V3 = 903         # the fixed point: a claim of the game
V5 = 905         # four-handed: who declares
TABLE_A = 299    # not a combination of the ordinary game
TABLE_B = 399    # not a combination of Rubicon
