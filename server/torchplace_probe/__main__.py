"""`python -m torchplace_probe FILE ...`: the probe command without the `torchplace` CLI."""
import sys

from .probe_command import main

sys.exit(main())
