"""Reading a source file as Python reads it, and writing a fix back byte-faithfully.

A file is opened only if it is a regular file (a FIFO, device or socket is
refused before anything is read, so `check` never blocks or reads for ever)
and no larger than the configured cap.  The text is decoded with the file's
own encoding (BOM, PEP 263 coding cookie, else UTF-8; undecodable bytes fall
back to latin-1, which maps every byte), and `--fix` encodes the fixed text
with the same codec, so a latin-1 file stays latin-1, a BOM stays, and line
breaks are never translated.  Writes never follow a symbolic link unless the
caller asks, and never reach a file that is not regular.
"""
from __future__ import annotations

import codecs
import io
import os
import stat
import tokenize
from dataclasses import dataclass
from typing import Optional, Union

_NONBLOCK = getattr(os, "O_NONBLOCK", 0)
_NOFOLLOW = getattr(os, "O_NOFOLLOW", 0)


class UnreadableFile(OSError):
    """A file that is skipped: the message says why."""


@dataclass(frozen=True)
class SourceFile:
    text: str
    codec: str  # what decoded it, and what a fix is written with ("utf-8-sig" keeps a BOM)

    def encode(self, text: str) -> bytes:
        """`text` in the file's own encoding; raises UnicodeEncodeError if it cannot hold it."""
        return text.encode(self.codec)


def read_bytes(path: Union[str, os.PathLike], max_size: int) -> bytes:
    """The bytes of a regular file of at most `max_size` bytes; raises `UnreadableFile`."""
    try:
        fd = os.open(path, os.O_RDONLY | _NONBLOCK)
    except OSError as exc:
        raise UnreadableFile(f"cannot read: {exc.strerror or exc}") from None
    try:
        info = os.fstat(fd)
        if not stat.S_ISREG(info.st_mode):
            raise UnreadableFile("not a regular file (a FIFO, device or socket); skipped")
        if info.st_size > max_size:
            raise UnreadableFile(f"{info.st_size:,} bytes, over the size limit of {max_size:,} bytes; skipped")
        data = _read_all(fd, max_size + 1, info.st_size + 1)
        if len(data) > max_size:  # grew while we looked
            raise UnreadableFile(f"over the size limit of {max_size:,} bytes; skipped")
        return data
    except OSError as exc:
        if isinstance(exc, UnreadableFile):
            raise
        raise UnreadableFile(f"cannot read: {exc.strerror or exc}") from None
    finally:
        os.close(fd)


def _read_all(fd: int, limit: int, expected: int) -> bytes:
    """Up to `limit` bytes of `fd`, to its end (`expected`: how many it should hold, read in one
    call; `os.read` without a buffered file object around it, which cost as much as the read)."""
    chunks = []
    size = min(limit, max(expected, 1))
    while limit > 0:
        chunk = os.read(fd, size)
        if not chunk:
            break
        chunks.append(chunk)
        limit -= len(chunk)
        size = min(limit, 1 << 16)
    return chunks[0] if len(chunks) == 1 else b"".join(chunks)


def decode_source(data: bytes) -> SourceFile:
    """Decode as Python would (BOM, coding cookie, UTF-8), falling back to latin-1."""
    second = data.find(b"\n", data.find(b"\n") + 1)
    try:
        if b"coding" not in (data[:second] if second >= 0 else data) and not data.startswith(codecs.BOM_UTF8):
            codec = "utf-8"  # no BOM, no cookie on the first two lines: what `detect_encoding` says, unread
        else:
            codec, _ = tokenize.detect_encoding(io.BytesIO(data).readline)
            codec = codecs.lookup(codec).name if codec != "utf-8-sig" else codec
        text = data.decode(codec)
        if codec == "utf-8" or text.encode(codec) == data:
            # (strict UTF-8 has one encoding of each text: it round-trips, so it is not re-encoded to see)
            return SourceFile(text, codec)
    except (SyntaxError, LookupError, UnicodeError):
        pass
    return SourceFile(data.decode("latin-1"), "latin-1")


def read_source(path: Union[str, os.PathLike], max_size: int) -> SourceFile:
    return decode_source(read_bytes(path, max_size))


def write_fixed(path: Union[str, os.PathLike], data: bytes, through_symlinks: bool = False) -> Optional[str]:
    """Write `data` over the regular file `path` in place; None, or why it was not written."""
    flags = os.O_WRONLY | _NONBLOCK | (0 if through_symlinks else _NOFOLLOW)
    try:
        if not through_symlinks and os.path.islink(path):
            return "not fixed: it is a symbolic link (pass --fix-symlinks to write through it)"
        fd = os.open(path, flags)
    except OSError as exc:
        return f"not fixed: {exc.strerror or exc}"
    try:
        if not stat.S_ISREG(os.fstat(fd).st_mode):
            return "not fixed: not a regular file"
        os.ftruncate(fd, 0)
        view = memoryview(data)
        while view:
            view = view[os.write(fd, view):]
        return None
    finally:
        os.close(fd)
