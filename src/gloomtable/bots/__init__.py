"""Bots see only ``view(player)`` and the legal actions, never the state."""

from gloomtable.bots.base import LEVELS, Bot, RandomBot, bot_action
from gloomtable.bots.levels import make_bot, seat_bots

__all__ = ["LEVELS", "Bot", "RandomBot", "bot_action", "make_bot", "seat_bots"]
