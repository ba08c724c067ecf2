"""The corpus cases are projects the engine reads, not tests: a case's own `test_*.py` (a
re-created project's test module) must never be collected or run by pytest."""
collect_ignore_glob = ["cases/*"]
