"""Stjernen deals for "winnable deals only" (see :mod:`.winnable`).

Deal numbers drawn at random from the range random deals use that the first
beam of :func:`.stjernen.solve` wins. That beam's width does not depend on the
clock, so it wins them on any machine, each in 0.5-5 s of CPU. Made by
``python bench/stjernen_book.py`` (its output's first column, in order).
"""

BOOK: tuple[int, ...] = (
    601051017,
    425373532,
    793404884,
    893032820,
    567345069,
    67822818,
    38281881,
    204234562,
    250875089,
    272724777,
    813885616,
    429926020,
    909012247,
    312354604,
    71754410,
    735403067,
    229245687,
    855795335,
    600538584,
    480418803,
    450145315,
    412050349,
    636450400,
    21078319,
    226248380,
    646412435,
    353213192,
    930424853,
    203796914,
    41550022,
    527206706,
    701698436,
)
