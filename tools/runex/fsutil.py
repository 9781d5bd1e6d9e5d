"""Files as the tool treats them: written whole or not at all (a reader, or a --check after an interrupted run, sees
the old or the new file), and hashed by one helper (sha256, hex) wherever a key or a snapshot needs a digest."""

import fcntl
import hashlib
import os
import re
from pathlib import Path


def sha256_bytes(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


def sha256_file(path: Path | str) -> str:
    """The file's sha256, read in blocks (a built binary may be large). Raises OSError."""
    digest = hashlib.sha256()
    with open(path, "rb") as handle:
        for block in iter(lambda: handle.read(1 << 20), b""):
            digest.update(block)
    return digest.hexdigest()

# write_atomic's temporary files: ".NAME." + mkstemp's 8 random characters + ".tmp", beside NAME.
LEFTOVER = re.compile(r"^\..+\.[A-Za-z0-9_]{8}\.tmp$")


def write_atomic(path: Path, data: bytes) -> None:
    """Write to a temporary file beside `path`, flush it to disk, then rename it over `path`."""
    import tempfile  # here: a warm run with nothing new to record writes nothing, and need not pay for it

    fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=path.parent)
    try:
        # Held until the file is renamed or removed: remove_leftovers() never takes a write still in progress.
        fcntl.flock(fd, fcntl.LOCK_EX)
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


def remove_leftovers(folders: list[Path]) -> list[Path]:
    """Delete the temporary files of writes that a killed run (SIGKILL, power loss) left behind. A file another
    run is still writing is locked, and kept."""
    removed = []
    for folder in folders:
        if not folder.is_dir():
            continue
        for path in folder.rglob(".*.tmp"):
            if not LEFTOVER.match(path.name) or not path.is_file() or path.is_symlink():
                continue
            try:
                fd = os.open(path, os.O_RDONLY | os.O_NOFOLLOW)
            except OSError:
                continue
            try:
                fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
                path.unlink()
                removed.append(path)
            except OSError:
                pass  # locked: a write still in progress
            finally:
                os.close(fd)
    return removed
