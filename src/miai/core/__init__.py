"""Pure rules of every game: no I/O, no clocks, no global randomness, no third-party imports."""
