"""Rulesets: the shared contract, the Rng, the registry and one module per game."""
