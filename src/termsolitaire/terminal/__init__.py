"""What reaches the terminal: :mod:`.shadow` (only the cells that changed, plain
Python) and :mod:`.driver` (Textual's Linux driver made safe and compact)."""

from .shadow import DEFAULT, NotAFrame, Pen, Shadow, parse_frame, parse_sgr, sgr

__all__ = ["DEFAULT", "NotAFrame", "Pen", "Shadow", "parse_frame", "parse_sgr", "sgr"]
