"""`roomy`: a function whose call leaves the analysis under it room on CPython's frame stack.

CPython 3.11+ keeps Python frames on a stack made of 16 KiB chunks that it maps from the system
(`mmap`) when a call needs more room, and unmaps as soon as the first frame of a chunk returns.
The analysis recurses (expressions, calls, call contexts, statements) to a depth that rises and
falls across a chunk boundary thousands of times per checked file, and every crossing maps a
chunk, faults its first page in and unmaps it again: on the 120 engine_speed files 13,900
`mmap`/`munmap` pairs and 13,000 of the run's 40,800 minor page faults, about 0.2 CPU s of system
time (CPU time engine_speed counts; callgrind, which counts user-space instructions, does not).

A frame claims its code object's whole value stack (`co_stacksize`).  The frame of a `roomy`
function claims `ROOM_SLOTS` slots that it never uses, so the interpreter maps one chunk of the next
power of two (512 KiB) for it, and the frames of everything it calls fill the rest of that chunk
(~260 KB: more than the default recursion limit's 1,000 frames need): one map per call, no
crossings.  The claimed slots are never written, so their pages are never faulted in.  Nothing
else changes: the same frames, the same recursion depth and limit, the same results.  Earlier
Pythons allocate each frame on its own (no chunks): there the function is left as it is.
"""
from __future__ import annotations

import sys

# (x 8 bytes: more than 256 KiB by itself, so the chunk is 512 KiB whatever the interpreter adds)
ROOM_SLOTS = 33_000
CHUNKED_FRAME_STACK = sys.implementation.name == "cpython" and sys.version_info >= (3, 11)


def roomy(func):
    """`func`, its frame claiming `ROOM_SLOTS` value-stack slots (see the module's docstring)."""
    code = func.__code__
    if CHUNKED_FRAME_STACK and code.co_stacksize < ROOM_SLOTS:
        func.__code__ = code.replace(co_stacksize=ROOM_SLOTS)
    return func
