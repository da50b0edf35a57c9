"""`miai bot`: connects a GTP engine to a Miai account as a client of the public HTTP and websocket API.

It imports only `miai.formats` (the GTP controller), the standard library, httpx and websockets: a bot
is a client like the browser and never reaches into the server (ARCHITECTURE.md, "Bots").
"""
