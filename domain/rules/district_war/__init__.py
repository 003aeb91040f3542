"""District War (`district_war`): two seats place troops on a 7x7 board of 11 districts."""

from domain.rules.district_war.ruleset import INFO, RULESET, ChooseFirst, Order, Place, State

__all__ = ["INFO", "RULESET", "ChooseFirst", "Order", "Place", "State"]
