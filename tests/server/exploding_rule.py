"""TEST-ONLY: a rule whose check raises, registered in the engine's rule list.

It handles the analysis's `call` event and raises on files containing the word
EXPLODE.  Whether the engine isolates the crash itself (and reports it through
`check_source(..., errors=[...])`) or lets it escape (the server then switches
the rule off and re-checks), the other rules must still report and the crash
must be logged with the rule and the file.
"""
from torchplace_rules import Severity, rules
from torchplace_rules.rule_base import Rule


class ExplodingRule(Rule):
    code = "TP999"
    name = "test-exploding-rule"
    severity = Severity.WARNING
    summary = "Test-only rule that always crashes"
    what_it_does = "Raises, to test crash isolation."
    why_bad = "It is a test fixture."
    example = "EXPLODE"
    fix_doc = "None."

    def on_call(self, ev, *args) -> None:
        if "EXPLODE" in ev.src.text:
            raise RuntimeError("boom from the exploding test rule")


def install() -> None:
    rule = ExplodingRule()
    rules.ALL_RULES.append(rule)
    rules.ACTIVE_RULES.append(rule)
    rules.RULES_BY_CODE[rule.code] = rule
    rules.RULES_BY_NAME[rule.name] = rule
