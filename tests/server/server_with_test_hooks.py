"""TEST-ONLY launcher: the real server plus fault-injection switches.

Never used in production (it lives under tests/).  Flags, stripped before the
server's own arguments are parsed:
  --no-probe        make `import torchplace_probe` fail, as on a machine without it
  --exploding-rule  register rule TP999 whose check raises on any file containing
                    the word EXPLODE, to prove one crashing rule cannot silence others
"""
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

args = sys.argv[1:]
if "--no-probe" in args:
    args.remove("--no-probe")
    sys.modules["torchplace_probe"] = None  # import now raises ImportError
if "--exploding-rule" in args:
    args.remove("--exploding-rule")
    import exploding_rule

    exploding_rule.install()

from torchplace_server.serve_command import main  # noqa: E402

sys.exit(main(args))
