"""Tools for people who write Gloom decks and tell Gloom stories: a starter
deck, the card gallery, the balance report and the chronicle of a game.

Everything here drives games through ``make_game`` and the engine protocol,
and reads deck files through the public deck loader, like any other client."""
