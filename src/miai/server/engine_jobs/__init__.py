"""Engine jobs: computer moves, dead-stone verdicts and territory estimates, run in this process (the
embedded default, `local.py`) or by `miai worker` processes from a Redis stream (`redis_queue.py` submits,
`worker.py` runs, `sweep.py` heals lost submissions); `factory.py` picks one by the settings.

`protocol.py` is what the server sees; `engine.py` what computes in the process that runs the jobs;
`playing.py` is one computer move wherever it runs; `reviewing.py` one part of a game review, and
`turns.py` the order reviews take turns in (by user); `wire.py` the jobs' form on Redis; `memos.py` the
players' memos kept there between moves.
"""
