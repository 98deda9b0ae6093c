"""The Gloom rules (RULES.md parts G and H), one module per rulebook section.

- :mod:`.board`: the table, what shows on it and the card moves (R-G4, R-G9, R-G23, R-H5, R-H7)
- :mod:`.setup`: the deal, the first player and families (R-G7-G10, R-H2)
- :mod:`.plays`: what the turn player may play, and playing it (R-G11-G13, R-G23, R-H4)
- :mod:`.turn`: turns and drawing up (R-G14)
- :mod:`.responses`: cancelling a card as it is played (R-G20)
- :mod:`.resolving`: the task queue that resolves cards (R-G15-G17, R-G21, R-G22)
- :mod:`.lasting`: continuous and persistent effects (R-G18, R-G19, R-H8)
- :mod:`.scoring`: death, the end and the winner (R-G23-G26, R-H3, R-H9)
- :mod:`.stories`: Stories and Guests (R-H4-H9)

Each is a set of functions of a :class:`~.board.Board`; the state
(:mod:`gloomtable.games.gloom.state`) binds them into the engine protocol.
"""
