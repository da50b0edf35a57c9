"""The compiled Amazons player: numba move generation, a territory evaluation and a tree search.

`board` holds the rules on flat arrays, `evaluate` the queen/king-distance territory evaluation, `tree`
the search, `searcher` the typed Python wrapper registered in `miai.engines.searchers`.
"""
