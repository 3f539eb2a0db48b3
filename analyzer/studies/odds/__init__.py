"""How likely is a combination: the deal-time odds as exact fractions beside simulated
frequencies (:mod:`.deal_odds`), and the same odds for a seat given the cards it holds
(:mod:`.given_odds`, ``bezique odds --hold``)."""
