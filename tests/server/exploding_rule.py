"""TEST-ONLY: a rule whose check raises, injected into the engine's rule list.

The engine's `analyze` is wrapped so the rule runs before the real analysis on
files containing EXPLODE; when the server switches TP999 off (after the crash)
the real analysis runs with the remaining rules as usual.
"""
from torchplace_rules import Severity
from torchplace_rules import engine, rules
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

    def on_module(self, tree):
        raise RuntimeError("boom from the exploding test rule")


def install() -> None:
    rule = ExplodingRule()
    rules.ALL_RULES.append(rule)
    rules.ACTIVE_RULES.append(rule)
    rules.RULES_BY_CODE[rule.code] = rule
    rules.RULES_BY_NAME[rule.name] = rule
    real_analyze = engine.analyze

    def analyze(tree, src, active, config):
        for r in active:
            if isinstance(r, ExplodingRule) and "EXPLODE" in src.text:
                r.on_module(tree)
        return real_analyze(tree, src, [r for r in active if not isinstance(r, ExplodingRule)], config)

    engine.analyze = analyze
