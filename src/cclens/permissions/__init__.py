"""Claude Code's permission rules: types, parsing, matching, settings, evaluation, suggestions.

A pure library: nothing here prints, and the only I/O is reading settings files.
"""

from .danger import is_destructive_command, is_sensitive_path
from .evaluate import Decision, DecisionSource, evaluate
from .match import command_matches, domain_matches, rule_matches
from .paths import path_matches
from .rules import RuleParseError, format_rule, parse_rule, sourced_rules
from .settings import (
    PermissionSettings,
    SettingsDiagnostic,
    SettingsFile,
    claude_config_dir,
    load_settings,
    parse_settings,
    read_settings_file,
    settings_paths,
)
from .suggest import (
    RecordedCall,
    Suggestion,
    merge_same,
    merge_suggestions,
    natural_prefix,
    rank,
    suggest,
    valid_rule,
)
from .tools import canonical_tool_name
from .types import (
    DESTINATIONS,
    MODES,
    AddDirectories,
    AddRules,
    InvalidPermissionUpdate,
    PermissionBehavior,
    PermissionMode,
    PermissionRuleValue,
    PermissionUpdate,
    PermissionUpdateDestination,
    RemoveDirectories,
    RemoveRules,
    ReplaceRules,
    SetMode,
    SourcedRule,
    parse_permission_update,
)

__all__ = [
    "DESTINATIONS",
    "MODES",
    "AddDirectories",
    "AddRules",
    "Decision",
    "DecisionSource",
    "InvalidPermissionUpdate",
    "PermissionBehavior",
    "PermissionMode",
    "PermissionRuleValue",
    "PermissionSettings",
    "PermissionUpdate",
    "PermissionUpdateDestination",
    "RecordedCall",
    "RemoveDirectories",
    "RemoveRules",
    "ReplaceRules",
    "RuleParseError",
    "SetMode",
    "SettingsDiagnostic",
    "SettingsFile",
    "SourcedRule",
    "Suggestion",
    "canonical_tool_name",
    "claude_config_dir",
    "command_matches",
    "domain_matches",
    "evaluate",
    "format_rule",
    "is_destructive_command",
    "is_sensitive_path",
    "load_settings",
    "merge_same",
    "merge_suggestions",
    "natural_prefix",
    "parse_permission_update",
    "parse_rule",
    "parse_settings",
    "path_matches",
    "rank",
    "read_settings_file",
    "rule_matches",
    "settings_paths",
    "sourced_rules",
    "suggest",
    "valid_rule",
]
