"""TP001 syntax-error: the file does not parse, so nothing else can be checked."""
from ..model import Severity
from ..rule_base import Rule


class SyntaxErrorRule(Rule):
    code = "TP001"
    name = "syntax-error"
    severity = Severity.ERROR
    summary = "The file does not parse; no other rule can check it"
    what_it_does = "Reports the first syntax error in a file, at its position."
    why_bad = """
        Python cannot run the file, and torchplace cannot analyse it: every other
        rule is silent until the error is fixed.  The finding keeps the position so
        the editor shows where to look.
    """
    example = """
        model = torch.nn.Linear(4, 2).to(device
    """
    fix_doc = "Correct the syntax; torchplace re-checks the file on the next edit."
    VALID = []
    INVALID = []
