"""Set-up for every test: the engine's values keep their frozen guard (flow/frozen.py), so a test run
catches code that changes a value after making it, in this process and in the CLI and server processes
the tests start (they inherit TORCHPLACE_FROZEN_VALUES)."""
import os

os.environ["TORCHPLACE_FROZEN_VALUES"] = "1"

from torchplace_rules.flow import frozen  # noqa: E402  (imported already by the probe's pytest plugin)

frozen.keep_guard()
