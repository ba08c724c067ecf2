"""torchplace's rule engine: device-flow analysis of PyTorch code, rules and fixes.

Pure Python; imports neither torch nor editor code.  See docs/architecture.md.
"""
from .config import Config, ConfigError, load_config
from .engine import check_source
from .files import check_path, iter_python_files
from .fixes import apply_fixes
from .model import Applicability, Edit, EngineError, Finding, Fix, Related, Severity, Span
from .rules import ALL_RULES, explain, get_rule

__all__ = [
    "ALL_RULES", "Applicability", "Config", "ConfigError", "Edit", "EngineError", "Finding", "Fix", "Related",
    "Severity", "Span", "apply_fixes", "check_path", "check_source", "explain", "get_rule",
    "iter_python_files", "load_config",
]
