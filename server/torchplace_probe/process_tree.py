"""End a kernel and everything it started; run a short command without waiting for ever.

Why: a probed cell may start processes (a DataLoader's workers, `subprocess`, a
daemon that calls `setsid`).  When the probe restarts, shuts down or loses a
kernel, all of them must end with it, or every probe leaves processes behind.
The kernel runs in its own process group (jupyter_client starts it with
`start_new_session`), is made a child subreaper on Linux (so that daemonised
grandchildren stay its descendants), and is ended with its whole process tree.
Host side: stdlib only.
"""
from __future__ import annotations

import os
import signal
import subprocess
from typing import Optional

SUBREAPER_CODE = (
    "def __torchplace_subreaper():\n"
    "    import ctypes, sys\n"
    "    if sys.platform.startswith('linux'):\n"
    "        try:\n"
    "            ctypes.CDLL(None, use_errno=True).prctl(36, 1, 0, 0, 0)  # PR_SET_CHILD_SUBREAPER\n"
    "        except Exception:\n"
    "            pass\n"
    "__torchplace_subreaper()\n"
    "del __torchplace_subreaper\n"
)


def _parents() -> dict:
    """pid -> parent pid of every process (Linux /proc; empty elsewhere)."""
    table = {}
    try:
        entries = os.listdir("/proc")
    except OSError:
        return table
    for entry in entries:
        if not entry.isdigit():
            continue
        try:
            with open(f"/proc/{entry}/stat", "rb") as fh:
                stat = fh.read().decode("utf-8", "replace")
        except OSError:
            continue
        fields = stat.rsplit(")", 1)[-1].split()
        if len(fields) > 1 and fields[1].isdigit():
            table[int(entry)] = int(fields[1])
    return table


def descendants(pid: int) -> list:
    """Every process below `pid`, nearest first."""
    children: dict = {}
    for child, parent in _parents().items():
        children.setdefault(parent, []).append(child)
    found, queue = [], [pid]
    while queue:
        for child in children.get(queue.pop(0), []):
            found.append(child)
            queue.append(child)
    return found


def kill_tree(pid: Optional[int], pgid: Optional[int], known: Optional[list] = None) -> None:
    """SIGKILL the process, its descendants (`known` ones too: found before it was stopped) and
    its process group, whatever of them is left."""
    targets = (descendants(pid) if pid else []) + list(known or [])
    if pgid:
        try:
            os.killpg(pgid, signal.SIGKILL)
        except (ProcessLookupError, PermissionError, OSError):
            pass
    for target in ([pid] if pid else []) + targets:
        try:
            os.kill(target, signal.SIGKILL)
        except (ProcessLookupError, PermissionError, OSError):
            pass


def run_bounded(argv: list, timeout: float) -> subprocess.CompletedProcess:
    """Run a short command in its own process group; on timeout end the whole group and raise
    subprocess.TimeoutExpired (FileNotFoundError / OSError pass through)."""
    proc = subprocess.Popen(argv, stdout=subprocess.PIPE, stderr=subprocess.PIPE, stdin=subprocess.DEVNULL,
                            text=True, start_new_session=True)
    try:
        out, err = proc.communicate(timeout=timeout)
    except subprocess.TimeoutExpired:
        kill_tree(proc.pid, proc.pid)  # the group first: its members may outlive the command
        proc.communicate()
        raise
    return subprocess.CompletedProcess(argv, proc.returncode, out, err)
