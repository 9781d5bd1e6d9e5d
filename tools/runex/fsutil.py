"""Whole-or-nothing file writes: a reader (or a --check after an interrupted run) sees the old or the new file."""

import os
import tempfile
from pathlib import Path


def write_atomic(path: Path, data: bytes) -> None:
    """Write to a temporary file beside `path`, flush it to disk, then rename it over `path`."""
    fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=path.parent)
    try:
        with os.fdopen(fd, "wb") as handle:
            handle.write(data)
            handle.flush()
            os.fsync(handle.fileno())
        if path.exists():
            os.chmod(tmp, path.stat().st_mode & 0o777)
        else:
            os.chmod(tmp, 0o644)
        os.replace(tmp, path)
    except BaseException:
        # Interrupted or failed: the target is untouched; leave no temporary file behind.
        try:
            os.unlink(tmp)
        except FileNotFoundError:
            pass
        raise
