"""Safe file handling for every output CipherBench writes: the one place that knows how.

- Replacing a file atomically: :class:`StagedFile` writes into an unnamed file in the target's
  folder (Linux ``O_TMPFILE``) and links it in under the target's name only when complete, so
  that nothing at all is left when the process dies, even by SIGKILL or a power cut; where the
  file system cannot, it writes under a short hidden name (``.cb-<pid>-<hex>.part``, swept from
  the folder the next time CipherBench writes there once that process is gone) and renames over
  the target, deleting the temporary file on any failure. It raises
  plain :class:`OSError` for callers that word their own messages (the exporters, the
  benchmark's kept ciphertext). :class:`AtomicOutput` is the same with one-sentence
  :class:`UserError` messages, for the files a user names (containers, raw exports, key files);
  :func:`move_into_place` moves an existing file over a target the same way.
- The checks on outputs before any work (:func:`~.output_checks.check_paths` and the
  protected inputs) are in :mod:`.output_checks`; a target that became a folder, a device, a
  pipe or a socket meanwhile is refused again at the moment a staged file is moved into place.
- Exact reads and full writes: :func:`read_exact` and :func:`write_all` (OSError passes),
  :func:`read_full` and :func:`open_input` (UserError), :func:`read_small_file` (a key file).
"""

from __future__ import annotations

import contextlib
import errno
import io
import os
import shutil
import stat
from pathlib import Path
from typing import Protocol

from app.core.errors import UserError
from app.core.runtime.output_checks import OutputExists, refuse_non_regular
from app.core.runtime.staging_names import staging_name, sweep_stale

# A new file is created only under a name nobody has; binary on Windows, where os.open
# defaults to text mode and would turn every LF written into CR LF.
_CREATE_FLAGS = (
    os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_CLOEXEC", 0) | getattr(os, "O_BINARY", 0)
)
_TEMP_NAME_TRIES = 100
_O_TMPFILE = getattr(os, "O_TMPFILE", 0)  # Linux 3.11+; 0 elsewhere


class Readable(Protocol):
    def readinto(self, buffer: memoryview, /) -> int | None: ...


class Writable(Protocol):
    def write(self, buffer: memoryview, /) -> int | None: ...


# --- exact reads and full writes -------------------------------------------------------------


def read_exact(f: Readable, view: memoryview) -> int:
    """Fill ``view`` from ``f``; fewer bytes only at end of file. Returns the bytes read;
    :class:`OSError` passes through."""
    done, size = 0, len(view)
    while done < size:
        got = f.readinto(view[done:])
        if not got:
            break
        done += got
    return done


def read_full(f: Readable, view: memoryview, path: str | os.PathLike[str] = "the input") -> int:
    """:func:`read_exact`, with a read error as :class:`UserError` naming ``path``."""
    try:
        return read_exact(f, view)
    except OSError as exc:
        raise UserError(f"cannot read {path}: {exc.strerror}") from None


def write_all(f: Writable, data: bytes | bytearray | memoryview) -> None:
    """Write all of ``data``: a raw (unbuffered) file may write less than asked."""
    view = memoryview(data)
    while view:
        written = f.write(view)
        if not written:
            raise OSError(errno.EIO, "the file system accepted no bytes")
        view = view[written:]


def open_input(path: str | os.PathLike[str]) -> io.FileIO:
    """The input, unbuffered (``readinto`` fills caller buffers directly), read-only."""
    try:
        return open(path, "rb", buffering=0)
    except OSError as exc:
        raise UserError(f"cannot read {path}: {exc.strerror}") from None


def read_small_file(
    path: str | os.PathLike[str], max_bytes: int, *, not_regular: str, too_large: str
) -> bytes:
    """The content of the regular file ``path`` (a key file) of at most ``max_bytes``; else
    :class:`UserError` with the sentence given, or saying it cannot be read."""
    source = Path(path)
    try:
        st = source.stat()
        if not stat.S_ISREG(st.st_mode):
            raise UserError(not_regular)
        if st.st_size > max_bytes:
            raise UserError(too_large)
        return source.read_bytes()
    except OSError as exc:
        raise UserError(f"cannot read the key file {source}: {exc.strerror}") from None


# --- atomic replacement ----------------------------------------------------------------------


class StagedFile:
    """A new file in the folder of ``target``, put in place by :meth:`place`; left any other
    way (error, cancel, Ctrl-C, SIGKILL) nothing of it remains. Every failure is an
    :class:`OSError`.

    On Linux the file is unnamed (``O_TMPFILE``) until :meth:`place` links it in; elsewhere,
    or on a file system without it, it has a short hidden name that :meth:`place` renames.
    ``mode`` applies to the new file (the umask still narrows it): 0o600 for plaintext and keys.
    ``file`` is unbuffered; a writer that wants a path instead closes it and uses ``path`` (for
    an unnamed file, ``/proc/self/fd/N``, valid until :meth:`place` or the end)."""

    def __init__(self, target: str | os.PathLike[str], *, mode: int = 0o666) -> None:
        self.target = Path(target)
        # abspath, not resolve: a symlinked target is replaced, as `mv` would, not its target.
        self.folder = Path(os.path.abspath(self.target)).parent
        self._mode = mode
        self._file: io.FileIO | None = None
        self._path: Path | None = None  # a named staging file, to remove on failure
        self._keep: int | None = None  # an unnamed file: a descriptor that keeps it alive

    @property
    def file(self) -> io.FileIO:
        assert self._file is not None, "use StagedFile in a with block"
        return self._file

    @property
    def unnamed(self) -> bool:
        return self._keep is not None

    @property
    def path(self) -> Path:
        if self._keep is not None:
            return Path(f"/proc/self/fd/{self._keep}")
        assert self._path is not None, "use StagedFile in a with block"
        return self._path

    def __enter__(self) -> StagedFile:
        """Create the file; :class:`FileExistsError` when no free name was found."""
        if _O_TMPFILE:
            try:
                fd = os.open(self.folder, _O_TMPFILE | os.O_WRONLY | os.O_CLOEXEC, self._mode)
            except OSError as exc:
                if exc.errno not in (errno.EOPNOTSUPP, errno.EISDIR, errno.EINVAL, errno.ENOENT):
                    raise
            else:
                self._keep = os.dup(fd)
                self._file = os.fdopen(fd, "wb", buffering=0)
                return self
        sweep_stale(self.folder)
        for _ in range(_TEMP_NAME_TRIES):
            name = staging_name()
            tmp = self.folder / name
            try:
                fd = os.open(tmp, _CREATE_FLAGS, self._mode)
            except FileExistsError:
                continue
            self._path = tmp
            self._file = os.fdopen(fd, "wb", buffering=0)
            return self
        raise FileExistsError(errno.EEXIST, "no free temporary name", str(self.folder))

    def write(self, data: bytes | bytearray | memoryview) -> None:
        write_all(self.file, data)

    def sync(self) -> None:
        """Close and flush the data to disk, for a file that is not made again from an input
        (results): a crash then leaves the old target or the complete new one."""
        self.file.close()
        if self._keep is not None:
            os.fsync(self._keep)
            return
        with open(self.path, "rb+") as f:
            os.fsync(f.fileno())

    def place(self, *, force: bool = True) -> None:
        """Close and put in place. ``force=False`` refuses (:class:`FileExistsError`) to replace
        a target that exists, atomically where the file system has hard links.
        :class:`NotRegularFileError` when the target is now a folder, a device, a pipe or a
        socket: an output is a regular file or nothing."""
        self.file.close()
        refuse_non_regular(self.target)
        if self._keep is not None:
            self._link_unnamed(force)
            return
        tmp = self.path
        if force:
            os.replace(tmp, self.target)
            self._path = None
            return
        try:
            os.link(tmp, self.target)  # atomic, and fails if the name exists
        except FileExistsError:
            raise
        except OSError:  # a file system without hard links: check, then rename
            if self.target.exists():
                raise FileExistsError(
                    errno.EEXIST, os.strerror(errno.EEXIST), str(self.target)
                ) from None
            os.replace(tmp, self.target)
            self._path = None
            return
        os.unlink(tmp)
        self._path = None

    def _link_unnamed(self, force: bool) -> None:
        """Give the unnamed file the target's name: linked straight in when the name is free
        (refused when taken and not ``force``); over an existing target, linked under a
        staging name and renamed over it, so the target is the old file or the new one."""
        folder = os.open(self.folder, os.O_RDONLY | os.O_DIRECTORY | os.O_CLOEXEC)
        try:
            try:
                _link_fd(self._keep, folder, self.target.name)
            except FileExistsError:
                if not force:
                    raise
                self._link_over(folder)
        finally:
            os.close(folder)
        self._release()

    def _link_over(self, folder: int) -> None:
        for _ in range(_TEMP_NAME_TRIES):
            name = staging_name()
            try:
                _link_fd(self._keep, folder, name)
            except FileExistsError:
                continue
            try:
                os.replace(name, self.target.name, src_dir_fd=folder, dst_dir_fd=folder)
            except BaseException:
                with contextlib.suppress(OSError):
                    os.unlink(name, dir_fd=folder)
                raise
            return
        raise FileExistsError(errno.EEXIST, "no free temporary name", str(self.folder))

    def _release(self) -> None:
        if self._keep is not None:
            os.close(self._keep)
            self._keep = None

    def __exit__(self, *exc: object) -> None:
        if self._file is not None and not self._file.closed:
            self._file.close()
        self._release()  # an unnamed file not placed: gone with its last descriptor
        if self._path is not None:
            with contextlib.suppress(OSError):  # never hide the error that brought us here
                os.unlink(self._path)
            self._path = None


class AtomicOutput:
    """A :class:`StagedFile` for a file the user named: every failure is a :class:`UserError`
    of one sentence. :meth:`commit` moves it into place; without ``force`` it refuses to
    replace a file that appeared meanwhile."""

    def __init__(self, path: str | os.PathLike[str], *, force: bool, mode: int = 0o666) -> None:
        self.path = Path(path)
        self._force = force
        self._staged = StagedFile(self.path, mode=mode)

    def __enter__(self) -> AtomicOutput:
        folder = self._staged.folder
        try:
            self._staged.__enter__()
        except FileExistsError:
            raise UserError(f"cannot create a temporary file in {folder}") from None
        except OSError as exc:
            raise UserError(f"cannot write in {folder}: {exc.strerror}") from None
        return self

    def write(self, data: bytes | bytearray | memoryview) -> None:
        try:
            self._staged.write(data)
        except OSError as exc:
            raise UserError(f"cannot write {self.path}: {exc.strerror}") from None

    def commit(self) -> None:
        """Close and move into place. No fsync: the input is never touched, so a crash can lose
        only an output that is made again from it."""
        try:
            self._staged.place(force=self._force)
        except OSError as exc:
            if isinstance(exc, FileExistsError) and not self._force:
                raise OutputExists(self.path) from None
            raise UserError(f"cannot write {self.path}: {exc.strerror}") from None

    def __exit__(self, *exc: object) -> None:
        self._staged.__exit__(*exc)


def _link_fd(fd: int | None, folder: int, name: str) -> None:
    """``linkat(AT_FDCWD, "/proc/self/fd/<fd>", folder, name, AT_SYMLINK_FOLLOW)``: the way
    to name an ``O_TMPFILE`` file. A ``dst_dir_fd`` makes CPython call ``linkat`` (with a plain
    path it calls ``link``, which does not follow the magic link and fails with EXDEV)."""
    os.link(f"/proc/self/fd/{fd}", name, dst_dir_fd=folder, follow_symlinks=True)


def move_into_place(src: str | os.PathLike[str], target: str | os.PathLike[str]) -> None:
    """Move the file ``src`` over ``target``: renamed (atomic) on the same file system, else
    copied through a :class:`StagedFile`, so ``target`` is never partly written."""
    refuse_non_regular(Path(target))
    try:
        os.replace(src, target)
        return
    except OSError as exc:
        if exc.errno != errno.EXDEV:
            raise
    with StagedFile(target) as staged:
        with open(src, "rb") as fin:
            shutil.copyfileobj(fin, staged.file, 1 << 20)
        staged.place()
