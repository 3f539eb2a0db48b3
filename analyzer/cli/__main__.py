"""``python -m analyzer.cli``: the ``bezique`` command."""
from . import bezique

bezique()
