"""Worker processes that die with the run that started them, and take their browsers along.

A run's episodes are played in worker processes (``harness.runs.runner``) or Ray actors
(``harness.runs.ray_backend``), each owning a browser. ``watch_parent`` makes such a process die
with its parent: on Linux the kernel signals it (``PR_SET_PDEATHSIG``), and everywhere a thread
watches the parent's pid; either way the process kills its browsers (``kill_browsers``) and exits
at once (``die_with_browsers``).

Between the parent's death and the worker's there is a gap; ``parent_alive`` closes it:
``harness.runs.recorder`` publishes an episode only while the parent that started the worker is
alive, and raises ``ParentGone`` instead of writing into a run nobody records.
"""
from __future__ import annotations

import ctypes
import os
import signal
import subprocess
import sys
import threading
import time

PR_SET_PDEATHSIG = 1
PARENT_PID: int | None = None       # set in worker processes: the pid of the run that owns them
_WATCHED: list[int] = []            # the parent pid watched in this process (set once)


class ParentGone(BaseException):
    """The run that started this worker is gone: the episode is not published. A BaseException, so the
    retry and error handling around an episode (``except Exception``) lets it through."""


def parent_alive() -> bool:
    """False in a worker process whose parent (the run) is gone; True everywhere else."""
    return PARENT_PID is None or os.getppid() == PARENT_PID


def watch_parent(parent_pid: int, *, handle_sigterm: bool = True, every: float = 0.5) -> None:
    """Make this process (a worker) die with ``parent_pid``, taking its browsers along.

    On Linux the kernel sends SIGTERM when the parent dies (``PR_SET_PDEATHSIG``); the handler (when
    ``handle_sigterm``) kills the browsers and exits at once. Everywhere, a daemon thread checks every
    ``every`` s that the parent is still ours (``os.getppid()``) and does the same if not — also the
    fallback when the main thread is stuck in native code. From then on ``parent_alive`` says whether
    the parent is still there, so no episode folder is published once it is gone."""
    global PARENT_PID
    if _WATCHED:
        return
    _WATCHED.append(parent_pid)
    PARENT_PID = parent_pid
    if sys.platform.startswith("linux"):
        try:
            libc = ctypes.CDLL(None, use_errno=True)
            libc.prctl(PR_SET_PDEATHSIG, signal.SIGTERM, 0, 0, 0)
        except (OSError, AttributeError):
            pass                                 # the watcher thread still covers it
    if handle_sigterm and threading.current_thread() is threading.main_thread():
        signal.signal(signal.SIGTERM, lambda signum, frame: die_with_browsers(128 + signum))
    if os.getppid() != parent_pid:               # it died before the signal was armed
        die_with_browsers()

    def watch():
        while os.getppid() == parent_pid:
            time.sleep(every)
        die_with_browsers()
    threading.Thread(target=watch, name="deskworld-parent-watch", daemon=True).start()


def _process_table() -> dict[int, tuple[int, int]]:
    """pid -> (ppid, process group) of every process (``/proc`` on Linux, else ``ps``)."""
    table = {}
    if os.path.isdir("/proc/self"):
        for name in os.listdir("/proc"):
            if not name.isdigit():
                continue
            try:
                with open(f"/proc/{name}/stat", "rb") as f:
                    raw = f.read().decode(errors="replace")
            except OSError:
                continue
            fields = raw[raw.rindex(")") + 2:].split()
            if fields[0] not in ("Z", "X"):
                table[int(name)] = (int(fields[1]), int(fields[2]))
        return table
    try:
        lines = subprocess.run(["ps", "-A", "-o", "pid=,ppid=,pgid="], capture_output=True, text=True,
                               timeout=5).stdout.splitlines()
    except (OSError, subprocess.SubprocessError):
        return table
    for line in lines:
        parts = line.split()
        if len(parts) == 3 and all(p.isdigit() for p in parts):
            table[int(parts[0])] = (int(parts[1]), int(parts[2]))
    return table


def descendants(pid: int | None = None) -> dict[int, int]:
    """The live descendants of ``pid`` (default: this process), as pid -> process group."""
    root = os.getpid() if pid is None else pid
    table = _process_table()
    children: dict[int, list[int]] = {}
    for p, (pp, _) in table.items():
        children.setdefault(pp, []).append(p)
    found, todo = {}, [root]
    while todo:
        for c in children.get(todo.pop(), ()):
            if c not in found and c != root:
                found[c] = table[c][1]
                todo.append(c)
    return found


def kill_browsers() -> None:
    """SIGKILL this process's browsers: every descendant process group but ours (Playwright starts Chromium
    in a session of its own; its zygotes and renderers share that group). The Playwright driver, a plain
    child, then sees its browser gone and exits when we do (its stdin closes), removing the profile."""
    own = os.getpgrp()
    for group in {g for g in descendants().values() if g != own}:
        try:
            os.killpg(group, signal.SIGKILL)
        except OSError:
            pass


def die_with_browsers(code: int = 1) -> None:
    """Kill this process's browsers and exit now, without cleanup that could hang or write."""
    try:
        kill_browsers()
    finally:
        os._exit(code)
