"""Array layouts shared by the kernels, the policies and the Python side.

Every constant here is a plain int, which numba folds into the kernels.
"""
import numpy as np

MAX_SEATS = 4
MAX_TABLE = 16          # table slots per seat (a holding never exceeds 10 cards)
MAX_INST = 16           # whole declared instances per seat (each holds a distinct table card)
MAX_TALON = 128
MAX_LEGAL = 96
MAX_EVENTS = 1024
N_COMBOS = 16

# --- actions a policy may return -------------------------------------------
A_PLAY_TABLE = 32        # 0..31 play card t from hand; 32 + t play it from the table
A_DECLARE = 64           # 64 + combo id
A_EXCHANGE = 80          # exchange the seven of trumps for the turn-up (R2.9)
A_STOP = 81              # end the declaration window
A_CARTE_BLANCHE = 82     # show carte blanche (R3.5); A_STOP declines
A_CLAIM_CARDS = 83       # replays only: lay the cards a claim names (R3.7)
A_PARTNER = 84           # V5 option: the trick winner lets his partner declare instead
A_CLAIM_GAME = 85        # V3: claim the game before playing a card (A_STOP: play on)
A_CLAIM = 96             # 96 + combo id: lay its cards from the hand for a claim (R3.7)

# --- decisions --------------------------------------------------------------
D_LEAD, D_FOLLOW, D_MELD, D_CARTE, D_CLAIM = 0, 1, 2, 3, 4

# --- observation: what one seat may know ------------------------------------
OBS_HAND = 0             # 32 counts: own hand (not on the table)
OBS_TABLE = 32           # 4 x 32 counts: table cards of seat (me + rel) % n, rel 0..3
OBS_PLAYED = 160         # 32 counts: cards played to tricks so far (public)
OBS_DECISION = 192
OBS_SEAT = 193
OBS_N_SEATS = 194
OBS_TRUMP = 195          # -1 while no trump is fixed
OBS_TURNUP = 196         # the card under the talon (-1 when none)
OBS_TALON_LEFT = 197     # cards still to draw, turn-up included
OBS_STAGE = 198          # 1 first stage, 2 second stage
OBS_TRICK = 199          # trick number, from 0
OBS_LEAD_CARD = 200      # card led to this trick (-1 when leading)
OBS_BEST_CARD = 201      # card winning the trick so far (-1 when leading)
OBS_BEST_REL = 202       # relative seat playing it
OBS_DECLARED = 203       # declarations made in this window
OBS_EXCHANGED = 204      # 1 once the seven has been exchanged this hand
OBS_DEALER_REL = 205     # relative seat of the dealer
OBS_SCORE = 206          # 4: scores by relative seat
OBS_BRISQUES = 210       # 4: brisques (aces and tens) won, by relative seat
OBS_TRICK_POS = 214      # how many cards are already in this trick
OBS_PACKS = 215
OBS_CORE = 216           # the fields above are kept up to date for every seat
# The public record (observe.observe_public), filled before a decision only for the seats
# whose policy asks for it (G_FULL_OBS): every public fact, enough to rebuild the hand
# from one seat's view and an assignment of the cards it cannot see (observe.rebuild).
OBS_FULL = 216           # 1 while the public record below is filled for this decision
OBS_LEADER_REL = 217     # relative seat of the player who leads (led) the trick
OBS_LEAD_TABLE = 218     # 1 when the card led to this trick came from the leader's table (public)
OBS_TRUMP_TRICK = 219    # trick at which trumps were fixed (-1: not yet)
OBS_TRUMP_HOW = 220      # how trumps were fixed: TRUMP_BY_* below
OBS_TALON_LEN = 221      # cards in the talon at the deal (turn-up included)
OBS_DRAWN = 222          # the card this seat drew last (-1: none yet)
OBS_CARTE_FIRST_REL = 223    # relative seat asked first in a carte-blanche round
OBS_TRICK_CARDS = 224    # 4: the cards played to this trick, in order
OBS_PUBLIC = 228         # 4 x OBS_PUBLIC_W: per relative seat, its public counters
OBS_PUBLIC_W = 104       #   P[P_REC:P_REC + REC_SEAT_W] (another seat's private statistics
                         #   zeroed), hand size, P_NTABLE, P_CARTE, P_INST_USED, P_KNOWN (32),
                         #   P_RESTORE (16), P_INST_COMBO (16)
OBS_SLOTS = OBS_PUBLIC + 4 * OBS_PUBLIC_W    # 4 x MAX_TABLE x T_W: each seat's table slots
# OBS_SIZE: after the table slots' layout below

# --- policy signature (engine/policy_data.py: POLICY_SIG) --------------------
#   policy(obs, legal, n_legal, rules, params, rng, data) -> action
# obs: int32[OBS_SIZE]; legal[:n_legal] the legal actions; rules: the packed
# RuleSet; params: the policy's settings (a record, policy_data.PARAMS_DTYPE);
# rng: uint64[1] counter state; data: the seat's SeatData (its model's weights
# and its working memory).
# What a seat may see (Players.sees, the engine's per-seat setting): SEE_PUBLIC its
# public record too (G_FULL_OBS; search players sample hands from it), SEE_HANDS and
# the other hands, SEE_TALON and the talon's order (the ceilings, which cheat: OBS_TRUE)
SEE_OWN, SEE_PUBLIC, SEE_HANDS, SEE_TALON = 0, 1, 2, 3

# --- global scalars of a hand (int64 array G) --------------------------------
# Everything the hand knows between two decisions lives here, so that a hand can be stopped,
# copied and resumed (see engine.hand): the phase and the seat to act, the trick in progress,
# the declaration window, the carte-blanche round.
(G_TRUMP, G_TALON_POS, G_TALON_LEN, G_LEADER, G_TRICK, G_STAGE, G_EXCHANGES,
 G_DEALER, G_NSEATS, G_LAST_WINNER, G_NEV, G_STATUS, G_ERR_MOVE, G_ERR_SEAT,
 G_ERR_RULE, G_ERR_DETAIL, G_ERR_ACTION, G_ERR_DECISION, G_TRUMP_TRICK, G_TRUMP_HOW,
 G_WINDOW_SEAT, G_PHASE, G_TO_ACT, G_TRICK_POS, G_LEAD, G_BEST, G_BEST_SEAT, G_DECLARED,
 G_CARTE_FIRST, G_CARTE_I, G_FULL_OBS, G_GAME_CLAIM) = range(32)     # G_FULL_OBS: bit s: fill seat s's public record
# G_FULL_OBS bits SEE_HANDS_BIT + s, SEE_TALON_BIT + s: fill OBS_TRUE for seat s (the ceilings)
SEE_HANDS_BIT, SEE_TALON_BIT = 4, 8
# G_GAME_CLAIM (V3): -1, or the seat that claimed the game + GAME_CLAIM_RIGHT if the claim was right
GAME_CLAIM_RIGHT = 4
G_TRICK_CARDS = 32       # 4: the cards played to the trick in progress, in order
G_DRAWN = 36             # 4: the cards drawn in the last round of draws, winner's first (-1: the deal)
G_LEAD_TABLE = 40        # 1 while the card led to the trick in progress came from the leader's table
G_SIZE = 41

# how trumps were fixed (G_TRUMP_HOW, OBS_TRUMP_HOW, REC_TRUMP_HOW)
TRUMP_BY_TURNUP, TRUMP_BY_MARRIAGE, TRUMP_BY_SEQUENCE = 0, 1, 2

# phases of a hand (G_PHASE): whose decision comes next, and of what kind
PH_CARTE, PH_PLAY, PH_MELD, PH_OVER, PH_CLAIM = 0, 1, 2, 3, 4

# hand status
ST_DONE, ST_INCOMPLETE, ST_ILLEGAL_SCRIPT, ST_ILLEGAL_POLICY = 0, 1, 2, 3

# --- per-hand records written by the batch kernel ---------------------------
# A record holds the hand's REC_* fields, then for each seat the block P[seat, P_REC:P_REC +
# REC_SEAT_W] as it is at the end of the hand (RS_* offsets): copied whole, not by field.
REC_DEALER, REC_STATUS, REC_TRICKS, REC_TRUMP, REC_EXCHANGES, REC_LAST_WINNER, \
    REC_CARDS_WON, REC_CARDS_LEFT, REC_TRUMP_HOW, REC_TRUMP_TRICK, REC_GAME_CLAIM = range(11)
REC_SEAT = 11            # seat blocks start here, REC_SEAT_W ints each
RS_SCORE, RS_DECL, RS_SEVEN, RS_BRISQ, RS_LAST, RS_TRICKS, RS_BEZ_MAX, RS_CARTE, RS_CLAIMS, \
    RS_RECV_QS, RS_RECV_JD, RS_DBL_MISS = range(12)
RS_FIRST_B = 12          # 3: trick (from 1) after which a double / treble / quadruple bézique was first scored (0: never)
RS_HELD_B = 15           # 3: 1 + tricks played when the seat first held 2 (3, 4) Q♠ and as many J♦ (0: never)
RS_NDECL = 18            # 16 counts by combo id
RS_WON = 34              # cards won in tricks
RS_TABLE_DECL = 35       # declarations made of table cards alone (R3.6 (a), portland)
REC_SEAT_W = 36
REC_W = REC_SEAT + MAX_SEATS * REC_SEAT_W
# The same record as a structured dtype, for reading records by name (records.as_structured)
SEAT_RECORD = np.dtype([
    ("score", np.int32), ("declared_points", np.int32), ("seven", np.int32),
    ("brisques", np.int32), ("last_trick", np.int32), ("tricks", np.int32),
    ("bezique_max", np.int32), ("carte_blanche", np.int32), ("claims", np.int32),
    ("received_qs", np.int32), ("received_jd", np.int32), ("double_missed", np.int32),
    ("first_bezique", np.int32, (3,)), ("held_bezique", np.int32, (3,)),
    ("declarations", np.int32, (N_COMBOS,)), ("cards_won", np.int32),
    ("table_declarations", np.int32)])
REC_DTYPE = np.dtype([
    ("dealer", np.int32), ("status", np.int32), ("tricks", np.int32), ("trump", np.int32),
    ("exchanges", np.int32), ("last_winner", np.int32), ("cards_won", np.int32),
    ("cards_left", np.int32), ("trump_how", np.int32), ("trump_trick", np.int32),
    ("game_claim", np.int32), ("seats", SEAT_RECORD, (MAX_SEATS,))])
assert REC_DTYPE.itemsize == 4 * REC_W and SEAT_RECORD.itemsize == 4 * REC_SEAT_W

# --- per-seat counters (int32 array P[seat]) ---------------------------------
P_HAND = 0               # 32 counts
P_TABLE = 32             # 32 counts
P_REC = 64               # the block a record keeps (RS_* offsets):
P_SCORE = P_REC + RS_SCORE
P_DECL = P_REC + RS_DECL             # points from declarations
P_SEVEN = P_REC + RS_SEVEN           # seven-of-trumps points (R2.2, R2.9, R2.10)
P_BRISQ = P_REC + RS_BRISQ           # aces and tens won (count)
P_LAST = P_REC + RS_LAST             # last-trick points
P_TRICKS = P_REC + RS_TRICKS         # tricks won
P_BEZ_MAX = P_REC + RS_BEZ_MAX       # highest bézique level scored (0..4)
P_CARTE_PTS = P_REC + RS_CARTE       # carte blanche points
P_CLAIMS = P_REC + RS_CLAIMS         # claims laid down
P_RECV_QS = P_REC + RS_RECV_QS       # Q♠ received (dealt or drawn)
P_RECV_JD = P_REC + RS_RECV_JD       # J♦ received
P_DBL_MISS = P_REC + RS_DBL_MISS     # held a double never scored: 1 a card of it was played, 2 the talon ran out
P_FIRST_B = P_REC + RS_FIRST_B       # 3: see RS_FIRST_B
P_HELD_B = P_REC + RS_HELD_B         # 3: see RS_HELD_B
P_NDECL = P_REC + RS_NDECL           # 16 declarations by combo id
P_WON = P_REC + RS_WON               # cards won in tricks
P_TABLE_DECL = P_REC + RS_TABLE_DECL     # declarations of table cards alone
P_NTABLE = P_REC + REC_SEAT_W        # table slots in use
P_CARTE = P_NTABLE + 1   # carte blanche: 1 while the hand may still be shown again (R3.5)
P_MELD_CAND = P_NTABLE + 2   # bitmask of combinations that may be feasible (a superset; see melds)
P_HAND_MASK = P_NTABLE + 3   # bit t set while the hand holds card t (read with state.card_mask)
P_TABLE_MASK = P_NTABLE + 4  # bit t set while the table holds card t
P_INST_USED = P_NTABLE + 5   # bit p set while instance p (see T_INST) is a whole declared combination
P_KNOWN = P_NTABLE + 6   # 32 counts: cards of the hand every seat knows are there (table cards
                         # taken back at the second stage, the turn-up exchanged, carte blanche)
P_BASE = P_KNOWN + 32    # the seat's game total before this hand (V3's claim counts it)
P_RESTORE = P_BASE + 1   # 16 counts by combo id (R3.6 portland): restorations held, one gained
                         # per card played from a whole scored instance of the combination
P_INST_COMBO = P_RESTORE + 16    # 16: the combination of whole instance p (while bit p of P_INST_USED)
P_W = P_INST_COMBO + 16

# --- table slots (int32 array T[seat, slot]) ---------------------------------
# card; level reached in class M, B, F (T_M + class); whether the copy was ever part of a
# scored combination; per class (T_IM + class), 1 + the instance of its latest declaration in
# that class while that instance lies whole on the table (0: none, or a card of it was played);
# T_INST: bit p set while the copy belongs to whole instance p (R3.6)
T_CARD, T_M, T_B, T_F, T_SCORED, T_IM, T_IB, T_IF, T_INST = range(9)
T_W = 9
OBS_GAME = OBS_SLOTS + 4 * MAX_TABLE * T_W   # 4: game totals before this hand, by relative seat
# --- what a cheating seat also sees (SEE_HANDS, SEE_TALON; zero for every fair policy) ---
OBS_TRUE = OBS_GAME + 4         # SEE_HANDS or SEE_TALON while filled for this decision, else 0
OBS_TRUE_HANDS = OBS_TRUE + 1   # 4 x 32: the hand of each relative seat
OBS_TRUE_DRAWN = OBS_TRUE_HANDS + 4 * 32    # 4: G_DRAWN (the last round of draws)
OBS_TRUE_TALON = OBS_TRUE_DRAWN + 4         # MAX_TALON: the cards still to draw, in order (SEE_TALON)
OBS_SIZE = OBS_TRUE_TALON + MAX_TALON

# --- the kernels' int64 scratch (HandState.work) ------------------------------
# A declaration's requirements, a four's named cards and the choice of copies live in fixed
# regions, so that the window, a declaration and a replay allocate nothing.
REQ_W = 8                # card types a combination may need (a sequence: 5; a named four: 4)
W_REQ_T = 0              # REQ_W: the card types a combination needs (req_t)
W_REQ_N = W_REQ_T + REQ_W    # REQ_W: the copies of each (req_n)
W_FOUR = 20              # FOUR_W: the cards of a four a replay names (-1: the engine chooses)
FOUR_W = 4
W_SELECT = 28            # SEL_W: the work of copies.select_copies and portland.select:
SEL_CHOSEN = 0           #   REQ_W: the table slots chosen (a combination has at most 8 cards)
SEL_FROM_HAND = 8        #   REQ_W: per requirement, the copies taken from the hand
SEL_LEFT = 16            #   REQ_W: per requirement, the copies still wanted
SEL_KEYS = 24            #   MAX_TABLE: per table slot, its order of spending (portland: its cost)
SEL_KIND = SEL_KEYS + MAX_TABLE  # MAX_TABLE: per table slot, the requirement it meets (-1: none)
SEL_W = SEL_KIND + MAX_TABLE
WORK_SIZE = 88
assert W_REQ_N + REQ_W <= W_FOUR and W_FOUR + FOUR_W <= W_SELECT and W_SELECT + SEL_W <= WORK_SIZE

# --- script rows (replay) ----------------------------------------------------
S_PLAY, S_DECLARE, S_EXCHANGE, S_CLAIM, S_CARTE, S_HOLD, S_PARTNER, S_GAME_CLAIM = range(8)
# S_HOLD: stop here (analysis); S_PARTNER: the winner lets his partner declare (V5);
# S_GAME_CLAIM: claim the game (V3)
S_CARDS = 4              # first of the cards named: the four of a four, or a claim's cards (-1 ends)
S_MAX_CARDS = 12
S_W = S_CARDS + S_MAX_CARDS  # kind, seat, card-or-combo (-1: a claim naming cards), from-table, cards

# --- events (int32 array E[k]) -----------------------------------------------
(E_TURNUP, E_TURNUP_SEVEN, E_PLAY, E_TRICK, E_DECLARE, E_EXCHANGE, E_DRAW,
 E_STAGE2, E_LAST_TRICK, E_BRISQUES, E_SEVEN, E_TRUMP, E_CARTE, E_CLAIM, E_LAID,
 E_PARTNER, E_GAME_CLAIM) = range(17)
E_W = 6                  # kind, seat, a, b, c, d

# --- detail codes for rule violations (with the rule id in G_ERR_RULE) -------
(X_NOT_HELD, X_NOT_ON_TABLE, X_TABLE_TAKEN_BACK, X_MUST_FOLLOW, X_MUST_WIN,
 X_MUST_TRUMP, X_MUST_OVERTRUMP, X_NOT_YOUR_TURN, X_NOT_WINNER, X_ONE_PER_TRICK,
 X_NO_NEW_CARD, X_REUSE_CLASS, X_REUSE_FOUR, X_AMERICAN, X_NOT_A_COMBINATION,
 X_AFTER_LAST_DRAW, X_NO_SEVEN, X_TURNUP_SEVEN, X_ALREADY_EXCHANGED,
 X_NOT_WHOLE_FOUR, X_ILLEGAL_ACTION, X_NO_CARTE_BLANCHE, X_CLAIM_NOT_ALLOWED,
 X_INFERIOR, X_STILL_WHOLE, X_NEW_AND_WHOLE, X_CLAIM_CARD, X_NO_EXCHANGE, X_AFTER_END,
 X_PANACHE, X_NO_PARTNER, X_NO_GAME_CLAIM, X_NO_RESTORATION, X_SCORED_SET) = range(34)

# --- a games run's chance of winning (engine/game_kernel.py; in this module so that the tables of a
# games run read them without compiling the games kernel) ----------------------
AFTER_HANDS = 8          # the chance of winning is kept after hands 1 .. 7, and 8 or later
DIFF_STEP = 100          # score differences in bins of 100 points ...
DIFF_BINS = 61           # ... from -3000 to +3000 (the outer bins take the rest)
