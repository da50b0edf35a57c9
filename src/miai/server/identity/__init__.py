"""Who a user is and how they prove it: accounts and their rules, password hashes, login sessions and API
tokens, mailed single-use links, recognised devices, signed values and the administrator role.

No web framework here: the routes in `api/` call these functions and turn their errors into answers (the
device cookie's path is the one HTTP detail `devices.py` knows).
"""
