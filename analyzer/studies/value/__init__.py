"""What cards are worth under strong play: a holding's expected margin and share of hands won
(:mod:`.holding`, ``bezique value``), and what each dealt card adds to the final margin, by
regression over many deals (:mod:`.deal`, the published ``deal_value`` study)."""
