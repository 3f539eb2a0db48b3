"""The main job's study (``bezique report``): its pairings, the strong players' band, the
policies head to head, the hints' worth and the deal-time odds played on the same deals
(:mod:`.study`, with :mod:`.strong`, how much strong play it plays), what it found in sentences
(:mod:`.findings`) and report.md (:mod:`.markdown`)."""
