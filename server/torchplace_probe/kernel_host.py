"""One Jupyter kernel of the user's interpreter: start or attach, run code, survive faults.

Why: the probe must run user code in the user's environment (their torch,
their GPU), keep state warm between probes, and stay in control when the code
loops forever, crashes the process or floods stdout.  Host side: stdlib and
jupyter_client only (never torch).
"""
from __future__ import annotations

import os
import queue
import subprocess
import sys
import shutil
import tempfile
import threading
import time
from dataclasses import dataclass, field
from typing import Callable, Optional

from .process_tree import descendants, kill_tree, run_bounded

LOOPBACK = "127.0.0.1"
CANCEL_GRACE = 1.5  # seconds a cancelled cell has to stop after the interrupt before the kernel restarts
_LOOPBACK_NAMES = {"127.0.0.1", "localhost", "::1"}


class ProbeSetupError(Exception):
    """The kernel cannot be started or reached; the message says what to do."""


@dataclass
class ExecOutcome:
    """What one execute request produced."""

    status: str = "ok"  # ok | error | aborted | unknown
    payloads: list = field(default_factory=list)
    output: str = ""
    output_truncated: bool = False
    error_name: str = ""
    error_value: str = ""
    timed_out: bool = False
    cancelled: bool = False
    interrupted: bool = False
    died: bool = False
    restarted: bool = False


def check_interpreter(python: str, timeout: float = 20.0) -> None:
    """Fail early, naming the interpreter, when ipykernel or torch is missing (bounded: an
    interpreter that hangs is ended with its whole process group after `timeout` seconds)."""
    probe = (
        "import importlib.util as u, sys;"
        "print(sys.version_info[0], sys.version_info[1],"
        " int(u.find_spec('ipykernel') is not None), int(u.find_spec('torch') is not None))"
    )
    try:
        done = run_bounded([python, "-c", probe], timeout)
    except FileNotFoundError:
        raise ProbeSetupError(f"interpreter not found: {python}") from None
    except subprocess.TimeoutExpired:
        raise ProbeSetupError(f"the interpreter {python} did not answer within {timeout:g} s (it was stopped)") from None
    except OSError as exc:
        raise ProbeSetupError(f"cannot run the interpreter {python}: {exc}") from None
    if done.returncode != 0:
        raise ProbeSetupError(f"the interpreter {python} failed to start: {done.stderr.strip()[-500:]}")
    try:
        major, minor, has_kernel, has_torch = (int(v) for v in done.stdout.split())
    except ValueError:
        raise ProbeSetupError(f"unexpected answer from {python}: {done.stdout!r}") from None
    missing = [name for name, ok in (("ipykernel", has_kernel), ("torch", has_torch)) if not ok]
    if missing:
        names = " and ".join(missing)
        raise ProbeSetupError(
            f"{names} {'is' if len(missing) == 1 else 'are'} not installed in the interpreter {python} "
            f"(Python {major}.{minor}); install with: {python} -m pip install {' '.join(missing)}"
        )


class KernelHost:
    """A started (managed) kernel or an attached (`existing`) one."""

    def __init__(self, python: Optional[str] = None, existing: Optional[str] = None,
                 cwd: Optional[str] = None, output_limit: int = 64_000, startup_timeout: float = 60.0) -> None:
        self.python = python or sys.executable
        self.existing = existing
        self.cwd = cwd
        self.output_limit = output_limit
        self.startup_timeout = startup_timeout
        self.manager = None
        self.client = None
        self.log_path: Optional[str] = None
        self._log = None
        self._pid: Optional[int] = None  # the kernel process (a managed kernel only) and its group
        self._pgid: Optional[int] = None
        self._lock = threading.Lock()

    # --- lifecycle ---
    def start(self) -> None:
        from jupyter_client import BlockingKernelClient, KernelManager
        from jupyter_client.kernelspec import KernelSpec

        if self.existing:
            client = BlockingKernelClient()
            try:
                client.load_connection_file(self.existing)
            except (OSError, ValueError) as exc:
                raise ProbeSetupError(f"cannot read the connection file {self.existing}: {exc}") from None
            if client.transport == "tcp" and client.ip not in _LOOPBACK_NAMES:
                raise ProbeSetupError(
                    f"the kernel in {self.existing} listens on {client.ip}; the probe only talks to kernels "
                    "on loopback (127.0.0.1)"
                )
            client.start_channels()
            self.client = client
        else:
            check_interpreter(self.python)
            manager = KernelManager()
            manager._kernel_spec = KernelSpec(
                argv=[self.python, "-m", "ipykernel_launcher", "-f", "{connection_file}"],
                display_name="torchplace probe", language="python", env={}, metadata={},
            )
            manager.ip = LOOPBACK
            manager.transport = "tcp"
            env = dict(os.environ)
            env.setdefault("PYTHONUNBUFFERED", "1")
            env["PYDEVD_DISABLE_FILE_VALIDATION"] = "1"
            # The kernel's own stderr (ipykernel warnings, a crash's last words) goes to a
            # log that a "kernel died" report can quote.
            self.log_path = os.path.join(tempfile.mkdtemp(prefix="torchplace-kernel-"), "kernel.log")
            self._log = open(self.log_path, "w")
            try:
                manager.start_kernel(cwd=self.cwd or os.getcwd(), env=env, stdout=self._log, stderr=self._log)
            except Exception as exc:  # noqa: BLE001 - any start failure is a setup error
                raise ProbeSetupError(f"cannot start a kernel with {self.python}: {exc}") from None
            self.manager = manager
            self._remember_process()
            client = manager.client()
            client.start_channels()
            self.client = client
        try:
            try:
                self.client.wait_for_ready(timeout=self.startup_timeout)
            except RuntimeError:
                if not self.existing:
                    raise
                time.sleep(1.0)  # an attached kernel's heartbeat may not beat yet
                self.client.wait_for_ready(timeout=self.startup_timeout)
        except RuntimeError as exc:
            self.shutdown()
            which = f"attached from {self.existing}" if self.existing else f"of {self.python}"
            raise ProbeSetupError(f"the kernel {which} did not become ready: {exc}") from None

    def is_alive(self) -> bool:
        if self.manager is not None:
            return self.manager.is_alive()
        if self.client is not None:
            return self.client.is_alive()
        return False

    def interrupt(self) -> None:
        if self.manager is not None:
            self.manager.interrupt_kernel()
        elif self.client is not None:
            msg = self.client.session.msg("interrupt_request", content={})
            self.client.control_channel.send(msg)

    def _remember_process(self) -> None:
        provisioner = getattr(self.manager, "provisioner", None)
        self._pid = getattr(provisioner, "pid", None)
        self._pgid = getattr(provisioner, "pgid", None)

    def _process_tree(self) -> tuple:
        """(pid, group, descendants) of the kernel, taken before it is stopped: once it is gone,
        its daemonised children belong to init and can no longer be found."""
        return self._pid, self._pgid, descendants(self._pid) if self._pid else []

    def restart(self) -> None:
        if self.manager is None:
            raise ProbeSetupError("cannot restart a kernel the probe did not start (--existing)")
        tree = self._process_tree()
        try:
            self.manager.restart_kernel(now=True)
        except Exception:  # noqa: BLE001 - a dead kernel: start afresh
            self.shutdown()
            self.start()
            return
        kill_tree(*tree)
        self._remember_process()
        if self.client is not None:
            self.client.stop_channels()
        self.client = self.manager.client()
        self.client.start_channels()
        self.client.wait_for_ready(timeout=self.startup_timeout)

    def shutdown(self) -> None:
        if self.client is not None:
            try:
                self.client.stop_channels()
            except Exception:  # noqa: BLE001
                pass
        if self.manager is not None:
            tree = self._process_tree()
            try:
                self.manager.shutdown_kernel(now=True)
            except Exception:  # noqa: BLE001
                pass
            kill_tree(*tree)
            self._pid = self._pgid = None
        self.client = None
        self.manager = None
        if self._log is not None:
            self._log.close()
            self._log = None
        if self.log_path:
            shutil.rmtree(os.path.dirname(self.log_path), ignore_errors=True)
            self.log_path = None

    def log_tail(self, limit: int = 2000) -> str:
        """The end of the kernel's stderr (e.g. "Segmentation fault" context)."""
        if not self.log_path:
            return ""
        try:
            with open(self.log_path, errors="replace") as fh:
                text = fh.read()
        except OSError:
            return ""
        lines = [ln for ln in text.splitlines() if "running over TCP without encryption" not in ln]
        return "\n".join(lines)[-limit:]

    # --- running code ---
    def execute(self, code: str, timeout: float, *, mime: Optional[str] = None,
                cancel: Optional[threading.Event] = None, grace: float = 3.0,
                on_output: Optional[Callable[[str], None]] = None) -> ExecOutcome:
        """Run `code`; interrupt it after `timeout` s (or on `cancel`), restart if that fails."""
        with self._lock:
            return self._execute(code, timeout, mime, cancel, grace, on_output)

    def _execute(self, code, timeout, mime, cancel, grace, on_output) -> ExecOutcome:
        client = self.client
        out = ExecOutcome()
        self._drain(client)
        msg_id = client.execute(code, silent=False, store_history=False, allow_stdin=False)
        deadline = time.monotonic() + timeout
        chunks: list = []
        size = 0
        while True:
            now = time.monotonic()
            if cancel is not None and cancel.is_set() and not out.interrupted:
                out.cancelled = out.interrupted = True
                self._try_interrupt()
                deadline = now + min(grace, CANCEL_GRACE)  # the user is waiting: restart sooner
            if now > deadline:
                if not out.interrupted:
                    out.timed_out = out.interrupted = True
                    self._try_interrupt()
                    deadline = now + grace
                    continue
                # Interrupting did not work: the kernel is stuck outside Python.
                if self.manager is not None:
                    self.restart()
                    out.restarted = True
                out.status = "aborted"
                break
            try:
                msg = client.get_iopub_msg(timeout=0.1)
            except queue.Empty:
                if not self.is_alive():
                    out.died = True
                    out.status = "aborted"
                    break
                continue
            if msg.get("parent_header", {}).get("msg_id") != msg_id:
                continue
            kind = msg["msg_type"]
            content = msg["content"]
            if kind == "stream":
                text = content.get("text", "")
                if on_output is not None:
                    on_output(text)
                if size < self.output_limit:
                    room = self.output_limit - size
                    chunks.append(text[:room])
                    if len(text) > room:
                        out.output_truncated = True
                    size += min(len(text), room)
                else:
                    out.output_truncated = True
            elif kind in ("display_data", "execute_result"):
                data = content.get("data", {})
                if mime and mime in data:
                    out.payloads.append(data[mime])
            elif kind == "error":
                out.status = "error"
                out.error_name = content.get("ename", "")
                out.error_value = content.get("evalue", "")
            elif kind == "status" and content.get("execution_state") == "idle":
                break
        out.output = "".join(chunks)
        return out

    def _try_interrupt(self) -> None:
        try:
            self.interrupt()
        except Exception:  # noqa: BLE001 - the restart path handles a kernel that cannot be interrupted
            pass

    @staticmethod
    def _drain(client) -> None:
        """Drop messages left over from earlier requests (replies nobody waited for)."""
        for get in (client.get_iopub_msg, client.get_shell_msg):
            while True:
                try:
                    get(timeout=0)
                except queue.Empty:
                    break
