"""gloomtable: the Gloom family of card games, with every rule enforced."""

__version__ = "0.1.0"
