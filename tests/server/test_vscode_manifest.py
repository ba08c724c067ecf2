"""The VS Code manifest agrees with the server and the rule catalog (issue 14, item 4; issue 15, item 9)."""
from __future__ import annotations

import json
from pathlib import Path

from torchplace_rules import ALL_RULES

from torchplace_server.setting_keys import BY_NAME, CLIENT_ONLY_KEYS

MANIFEST = json.loads((Path(__file__).resolve().parents[2] / "package.json").read_text(encoding="utf-8"))
SECTIONS = MANIFEST["contributes"]["configuration"]
PROPERTIES = {name: spec for section in SECTIONS for name, spec in section["properties"].items()}
ENGINE_KEYS = {"select", "ignore", "severity", "extraDeviceNames"}


def test_settings_are_in_sections_rules_server_probe():
    assert [s["title"] for s in SECTIONS] == ["Rules", "Server", "Probe"]
    assert all(name.startswith("torchplace.probe.") for name in SECTIONS[2]["properties"])


def test_every_setting_is_understood_by_the_server_or_the_client():
    for name in PROPERTIES:
        key = name[len("torchplace."):]
        assert key in BY_NAME or key in ENGINE_KEYS or key in CLIENT_ONLY_KEYS, name


def test_severity_has_a_choice_per_rule():
    severity = PROPERTIES["torchplace.severity"]
    assert set(severity["properties"]) == {rule.code for rule in ALL_RULES}
    assert severity["additionalProperties"] is False
    for spec in severity["properties"].values():
        assert spec["enum"] == ["error", "warning", "information", "hint"]


def test_settings_that_choose_what_runs_are_safe_from_a_workspace():
    restricted = MANIFEST["capabilities"]["untrustedWorkspaces"]["restrictedConfigurations"]
    for name in ("torchplace.interpreter", "torchplace.probe.existingKernel"):
        assert PROPERTIES[name]["scope"] == "machine-overridable"
        assert name in restricted
    assert MANIFEST["capabilities"]["untrustedWorkspaces"]["supported"] == "limited"


def test_enums_describe_their_choices():
    for name, spec in PROPERTIES.items():
        if "enum" in spec and name != "torchplace.severity":
            assert len(spec.get("enumDescriptions", [])) == len(spec["enum"]), name
