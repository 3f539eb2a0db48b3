"""What to play in a position: every legal action of the seat to act valued by the search
(:mod:`.analysis`, ``bezique analyze``)."""
