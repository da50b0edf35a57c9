"""The compiled Hex player: numba board and playouts, a UCT + RAVE tree search and its Python wrapper.

`board` holds the padded board, the winner of a full board and the playout with bridge-saving replies,
`connect` the union-find that tells the search when a move in its tree has won, `tree` the search,
`searcher` the typed wrapper registered in `miai.engines.searchers`.
"""
