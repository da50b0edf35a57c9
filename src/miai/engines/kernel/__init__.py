"""The compiled Go kernel (numba), bound to the rules core by tests/engines/test_kernel_vs_core.py.

    layout.py      the array layout of a position, and the core's Zobrist keys by padded point
    board.py       playing, capturing, full-rule legality (ko, superko, suicide), playout legality, eyes
    convert.py     a core GoState -> a KernelPosition (board, hashes, superko history, komi)
    patterns.py    the 3x3 shapes of light playouts
    ladder.py      ladder reading for playouts and priors
    shapes.py      3x3 shapes valued by how often players choose them (shape_rates.txt), for priors
    open_area.py   points with no stone nearby valued by their distance to the edges (open_area_rates.txt),
                   for priors on 13x13 and up
    playout.py     seeded random generator, the light playout policy, area scoring, rewards
    policy_net.py  the small convolutional move predictor (policy_net.npz), for priors on 19x19
    choices.py     replaying records: what players chose, and the predictor's training examples
    tree.py        UCT with RAVE over a flat node pool, for any number of colours
    jit.py         cached compilation, and dropping a cache built from other sources
"""
