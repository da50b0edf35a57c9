"""The Miai server: ASGI app, storage, realtime, scheduling and notifications. Owns all effects.

Its packages and top-level modules, from the bottom layer up: each imports only itself and those listed
before it, so what two of them both need lives below both. `tests/test_layers.py` enforces this order
(SERVER_ORDER there), counting imports inside functions and under TYPE_CHECKING too.

    errors, settings, logs   command errors, the operator's settings, logging
    text                     the server's rule for text (`clean_text`), for the edge and the command lines
    game_options             a game's options as its creator chose them, validated and stored as JSON
    move_texts               the stored texts of passes, resignations, timeouts and draws
    storage                  the database: models, migrations, the repository modules (only they speak SQL)
    realtime                 the hub: events to this process's subscribers and, through Redis, every other
                             process's; spectator counts; closing a revoked credential's sockets
    notify                   the bell (stored notifications) and mail (the outbox, `miai mail`)
    identity                 accounts, passwords, sessions and API tokens, bots, mailed links, administrators
    ratings                  rating systems applied to results, in the transaction that stores the result
    play                     game commands: the command stream, lobby, moves, chat, score review, computers
                             (which ask `ComputerJobs` of the engine jobs, wired in by app.py)
    engine_jobs              engine work, in this process or on `miai worker` processes through Redis
    scheduling               the deadline and guest-expiry loops
    api                      the edge: HTTP routes, their input types and dependencies, the websockets
    app, main                the app factory that wires it all together, and `miai serve`
"""
