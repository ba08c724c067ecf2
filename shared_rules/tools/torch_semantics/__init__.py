"""Development-time generator of torchplace_rules/data/torch_semantics.json from the installed
torch (run `python shared_rules/tools/generate_torch_semantics.py`; the engine never imports
this package nor torch)."""
