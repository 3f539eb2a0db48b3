"""One hand at a time: replay files, a hand played with its event log, and that log as text or JSON."""
