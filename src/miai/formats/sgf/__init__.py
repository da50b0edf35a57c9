"""Generic SGF (Smart Game Format) layers: forgiving bytes grammar, game trees, typed value codecs, writer.

Nothing here knows about Go boards or rules; the bridge to miai.core lives elsewhere.
"""

from miai.formats.sgf.errors import SgfError, SgfWarning
from miai.formats.sgf.grammar import parse_sgf
from miai.formats.sgf.tree import Collection, GameTree, Node
from miai.formats.sgf.values import (
    MAX_BOARD_SIZE,
    BoardSize,
    Colour,
    Point,
    decode_colour,
    decode_compose,
    decode_double,
    decode_move,
    decode_number,
    decode_point,
    decode_point_list,
    decode_real,
    decode_simpletext,
    decode_text,
    encode_colour,
    encode_compose,
    encode_dates,
    encode_double,
    encode_move,
    encode_number,
    encode_point,
    encode_point_list,
    encode_real,
    encode_simpletext,
    encode_text,
)
from miai.formats.sgf.writer import COMPOSE_PROPERTIES, as_written, dump_sgf, dump_sgf_text

__all__ = [
    "COMPOSE_PROPERTIES",
    "MAX_BOARD_SIZE",
    "BoardSize",
    "Collection",
    "Colour",
    "GameTree",
    "Node",
    "Point",
    "SgfError",
    "SgfWarning",
    "as_written",
    "decode_colour",
    "decode_compose",
    "decode_double",
    "decode_move",
    "decode_number",
    "decode_point",
    "decode_point_list",
    "decode_real",
    "decode_simpletext",
    "decode_text",
    "dump_sgf",
    "dump_sgf_text",
    "encode_colour",
    "encode_compose",
    "encode_dates",
    "encode_double",
    "encode_move",
    "encode_number",
    "encode_point",
    "encode_point_list",
    "encode_real",
    "encode_simpletext",
    "encode_text",
    "parse_sgf",
]
