"""Reading the permission parts of Claude Code's settings files (never writing them).

Three files hold rules a person keeps: ``userSettings`` in ``<claude dir>/settings.json`` (the
claude dir is ``$CLAUDE_CONFIG_DIR`` or ``~/.claude``), ``projectSettings`` in
``<project>/.claude/settings.json`` and ``localSettings`` in
``<project>/.claude/settings.local.json``. Each may carry ``permissions.allow``, ``deny``,
``ask``, ``additionalDirectories`` and ``defaultMode``. Every problem becomes a diagnostic that
names the file; nothing here raises for bad input.
"""

from __future__ import annotations

import os
import posixpath
from collections.abc import Mapping
from typing import Any, Literal, TypeAlias

import msgspec

from ..files import read_regular
from .rules import sourced_rules
from .types import (
    BEHAVIORS_BY_PRECEDENCE,
    MODES,
    PermissionMode,
    PermissionUpdateDestination,
    SourcedRule,
)

#: The destinations that are files on disk.
FileDestination: TypeAlias = Literal["userSettings", "projectSettings", "localSettings"]
#: From least to most specific: a later file's ``defaultMode`` wins.
FILE_DESTINATIONS: tuple[FileDestination, ...] = (
    "userSettings",
    "projectSettings",
    "localSettings",
)

DiagnosticKind: TypeAlias = Literal["missing", "unreadable", "malformed", "invalid"]


class SettingsDiagnostic(msgspec.Struct, frozen=True, kw_only=True):
    """A problem with one settings file: which file, what kind, and why."""

    path: str
    kind: DiagnosticKind
    reason: str


class SettingsFile(msgspec.Struct, frozen=True, kw_only=True):
    """The permission settings read from one file (empty when it is missing or malformed)."""

    path: str
    destination: PermissionUpdateDestination
    exists: bool
    rules: tuple[SourcedRule, ...] = ()
    additional_directories: tuple[str, ...] = ()
    default_mode: PermissionMode | None = None
    diagnostics: tuple[SettingsDiagnostic, ...] = ()


class PermissionSettings(msgspec.Struct, frozen=True, kw_only=True):
    """The settings files of one project taken together."""

    files: tuple[SettingsFile, ...]

    @property
    def rules(self) -> tuple[SourcedRule, ...]:
        """Every rule of every file, user settings first."""
        return tuple(rule for file in self.files for rule in file.rules)

    @property
    def additional_directories(self) -> tuple[str, ...]:
        """Every additional directory of every file, without repeats."""
        seen = dict.fromkeys(
            directory for file in self.files for directory in file.additional_directories
        )
        return tuple(seen)

    @property
    def default_mode(self) -> PermissionMode | None:
        """The ``defaultMode`` of the most specific file that sets one."""
        for file in reversed(self.files):
            if file.default_mode is not None:
                return file.default_mode
        return None

    @property
    def diagnostics(self) -> tuple[SettingsDiagnostic, ...]:
        """Every file's diagnostics, missing files included."""
        return tuple(diagnostic for file in self.files for diagnostic in file.diagnostics)


def claude_config_dir(environ: Mapping[str, str], *, home: str) -> str:
    """Claude Code's own directory: ``$CLAUDE_CONFIG_DIR`` when set, else ``~/.claude``."""
    configured = environ.get("CLAUDE_CONFIG_DIR", "").strip()
    if configured:
        return posixpath.normpath(posixpath.join(home, os.path.expanduser(configured)))
    return posixpath.join(home, ".claude")


def settings_paths(*, claude_dir: str, project_dir: str | None) -> dict[FileDestination, str]:
    """Where each settings file lives; project files only when there is a project."""
    paths: dict[FileDestination, str] = {
        "userSettings": posixpath.join(claude_dir, "settings.json")
    }
    if project_dir is not None:
        paths["projectSettings"] = posixpath.join(project_dir, ".claude", "settings.json")
        paths["localSettings"] = posixpath.join(project_dir, ".claude", "settings.local.json")
    return paths


def _string_list(
    value: Any, *, key: str, path: str, diagnostics: list[SettingsDiagnostic]
) -> list[str]:
    if value is None:
        return []
    if not isinstance(value, list):
        diagnostics.append(
            SettingsDiagnostic(path=path, kind="invalid", reason=f"{key} is not a list")
        )
        return []
    strings: list[str] = []
    for position, item in enumerate(value):
        if isinstance(item, str):
            strings.append(item)
        else:
            diagnostics.append(
                SettingsDiagnostic(
                    path=path, kind="invalid", reason=f"{key}[{position}] is not a string"
                )
            )
    return strings


def parse_settings(
    data: bytes, *, path: str, destination: PermissionUpdateDestination
) -> SettingsFile:
    """Parse the bytes of one settings file; ``path`` only labels rules and diagnostics."""
    diagnostics: list[SettingsDiagnostic] = []

    def failed(kind: DiagnosticKind, reason: str) -> SettingsFile:
        diagnostic = SettingsDiagnostic(path=path, kind=kind, reason=reason)
        return SettingsFile(
            path=path, destination=destination, exists=True, diagnostics=(diagnostic,)
        )

    try:
        document = msgspec.json.decode(data)
    except msgspec.DecodeError as error:
        return failed("malformed", f"not valid JSON: {error}")
    except UnicodeDecodeError:
        return failed("malformed", "not valid UTF-8")
    if not isinstance(document, dict):
        return failed("invalid", "the top level is not a JSON object")
    permissions = document.get("permissions")
    if permissions is None:
        return SettingsFile(path=path, destination=destination, exists=True)
    if not isinstance(permissions, dict):
        return failed("invalid", "permissions is not an object")

    rules: list[SourcedRule] = []
    for behavior in BEHAVIORS_BY_PRECEDENCE:
        key = f"permissions.{behavior}"
        texts = _string_list(permissions.get(behavior), key=key, path=path, diagnostics=diagnostics)
        parsed, errors = sourced_rules(texts, behavior=behavior, destination=destination, path=path)
        rules.extend(parsed)
        diagnostics.extend(
            SettingsDiagnostic(
                path=path, kind="invalid", reason=f"{key}: {error.text!r}: {error.reason}"
            )
            for error in errors
        )
    directories = _string_list(
        permissions.get("additionalDirectories"),
        key="permissions.additionalDirectories",
        path=path,
        diagnostics=diagnostics,
    )
    mode = permissions.get("defaultMode")
    default_mode: PermissionMode | None = None
    if mode is not None:
        if mode in MODES:
            default_mode = mode
        else:
            diagnostics.append(
                SettingsDiagnostic(
                    path=path,
                    kind="invalid",
                    reason=f"permissions.defaultMode {mode!r} is not one of {', '.join(MODES)}",
                )
            )
    return SettingsFile(
        path=path,
        destination=destination,
        exists=True,
        rules=tuple(rules),
        additional_directories=tuple(directories),
        default_mode=default_mode,
        diagnostics=tuple(diagnostics),
    )


def read_settings_file(path: str, destination: PermissionUpdateDestination) -> SettingsFile:
    """Read one settings file; a missing or unreadable file gives a diagnostic, not an error."""
    try:
        data = read_regular(path)
    except (FileNotFoundError, ValueError):  # ValueError: a path no file can have (a NUL in it)
        diagnostic = SettingsDiagnostic(path=path, kind="missing", reason="file not found")
        return SettingsFile(
            path=path, destination=destination, exists=False, diagnostics=(diagnostic,)
        )
    except OSError as error:
        diagnostic = SettingsDiagnostic(
            path=path, kind="unreadable", reason=error.strerror or str(error)
        )
        return SettingsFile(
            path=path, destination=destination, exists=True, diagnostics=(diagnostic,)
        )
    return parse_settings(data, path=path, destination=destination)


def load_settings(*, claude_dir: str, project_dir: str | None) -> PermissionSettings:
    """Read the user, project and local settings files of one project, in that order."""
    paths = settings_paths(claude_dir=claude_dir, project_dir=project_dir)
    return PermissionSettings(
        files=tuple(
            read_settings_file(paths[destination], destination)
            for destination in FILE_DESTINATIONS
            if destination in paths
        )
    )
