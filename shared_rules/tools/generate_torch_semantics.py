"""Regenerate torchplace_rules/data/torch_semantics.json from the installed torch.

Development time only (the engine reads the JSON and never imports torch):
    python shared_rules/tools/generate_torch_semantics.py           # write the table
    python shared_rules/tools/generate_torch_semantics.py --check   # exit 1 if it differs
"""
from __future__ import annotations

import argparse
import json
import os
import sys
import warnings

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

from torch_semantics.table import build  # noqa: E402

TABLE = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "torchplace_rules", "data",
                     "torch_semantics.json")


def render(table: dict) -> str:
    """One line per callable: small diffs when torch changes, still loadable with json alone."""
    lines = ["{"]
    keys = list(table)
    for i, key in enumerate(keys):
        value = table[key]
        comma = "," if i < len(keys) - 1 else ""
        if isinstance(value, dict) and value and all(isinstance(v, (list, dict)) for v in value.values()):
            lines.append(f"{json.dumps(key)}: {{")
            items = sorted(value.items())
            for j, (name, entry) in enumerate(items):
                inner = "," if j < len(items) - 1 else ""
                lines.append(f"  {json.dumps(name)}: {json.dumps(entry, separators=(',', ':'), sort_keys=True)}{inner}")
            lines.append("}" + comma)
        else:
            lines.append(f"{json.dumps(key)}: {json.dumps(value, sort_keys=True)}{comma}")
    lines.append("}")
    return "\n".join(lines) + "\n"


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--check", action="store_true", help="compare with the checked-in table instead of writing it")
    parser.add_argument("--out", default=TABLE)
    args = parser.parse_args(argv)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        text = render(build())
    if args.check:
        with open(args.out, encoding="utf-8") as f:
            same = f.read() == text
        print("torch_semantics.json is up to date" if same else "torch_semantics.json differs from the installed torch")
        return 0 if same else 1
    os.makedirs(os.path.dirname(args.out), exist_ok=True)
    with open(args.out, "w", encoding="utf-8") as f:
        f.write(text)
    print(f"wrote {os.path.normpath(args.out)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
