"""Files written whole or not at all: a figure, page or table goes to a temporary file beside
its destination and is renamed over it only once complete, so a full disk or a crash leaves the
previous file (or none), never half a PNG or half a page. The rename replaces a symlink planted
at the destination instead of writing through it."""
import contextlib
import os
import tempfile


@contextlib.contextmanager
def replaced(path, mode="w"):
    """Opens a temporary file in path's folder; on leaving the block without an exception it is
    flushed, synced and renamed to path; otherwise it is removed and path is left as it was."""
    path = os.fspath(path)
    folder = os.path.dirname(os.path.abspath(path))
    fd, tmp = tempfile.mkstemp(prefix="." + os.path.basename(path) + ".", suffix=".tmp",
                               dir=folder)
    try:
        umask = os.umask(0)
        os.umask(umask)
        os.fchmod(fd, 0o666 & ~umask)  # mkstemp's 0600 would hide pages from other readers
        with os.fdopen(fd, mode, **({} if "b" in mode else {"encoding": "utf-8"})) as f:
            yield f
            f.flush()
            os.fsync(f.fileno())
        os.replace(tmp, path)
    except BaseException as e:
        with contextlib.suppress(OSError):
            os.unlink(tmp)
        if isinstance(e, OSError) and e.filename is None and e.errno:
            raise OSError(e.errno, e.strerror, path) from None  # name the file in the message
        raise


def write_text(path, text):
    with replaced(path) as f:
        f.write(text)


def save_figure(fig, path, **savefig_args):
    """fig.savefig(path, ...) written whole or not at all; the format from path's extension."""
    fmt = os.path.splitext(os.fspath(path))[1].lstrip(".") or "png"
    with replaced(path, "wb") as f:
        fig.savefig(f, format=fmt, **savefig_args)
