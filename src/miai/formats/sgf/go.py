"""The bridge between SGF and the Go core: read a record into a `GoState`, write a state's game as SGF.

    record = load_go(path.read_bytes())   # the main line replayed; record.problems says what was odd
    record = load_go(data, upto=120)      # the position before move 120, as GNU Go's loadsgf FILE 120
    data = dump_go(record.state, record.info, record.rules_key)
    record.time_system, record.times      # TM/OT, and the time left after each move (BL/WL, OB/OW)

Two-colour games are written with standard FF[4] properties only for the position and the moves; more
colours, exact rules, team seats and leave events use Miai's extension properties (see docs/sgf.md).
"""

from miai.formats.sgf.go_read import GoRecord, load_go
from miai.formats.sgf.go_write import dump_go, outcome_value, record_to_tree, result_value

__all__ = ["GoRecord", "dump_go", "load_go", "outcome_value", "record_to_tree", "result_value"]
