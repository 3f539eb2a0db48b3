"""What happens when these players play, and which of two is the stronger: hands played and
tallied (:mod:`.simulate`), whole games to a target (:mod:`.games`), players compared on the
same deals with the seats swapped (:mod:`.compare`) and rated (:mod:`.ratings`: Elo, SPRT,
Bradley-Terry)."""
