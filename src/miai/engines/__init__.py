"""CPU players, the dead-stone estimator and external engines (depends on core and formats only)."""
