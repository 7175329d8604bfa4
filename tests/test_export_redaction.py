"""``cclens export`` redacts secrets by default, in every field and every format."""

from __future__ import annotations

import html
import json
import re
from pathlib import Path

import pytest
from click.testing import CliRunner

from cclens.cli import main
from cclens.render.parts import expand_page

from .test_dataset_synthetic import CWD, DATABASE_URL, SECRETS, SESSION, write_claude_dir

FORMATS = ["html", "md", "json"]


def export(tmp_path: Path, *arguments: str) -> tuple[str, str]:
    """Export the synthetic session; return (the file written, what the command said)."""
    claude = write_claude_dir(tmp_path / "claude")
    session = next(claude.rglob(f"{SESSION}.jsonl"))
    out = tmp_path / "out"
    result = CliRunner().invoke(main, ["export", str(session), "-o", str(out), *arguments])
    assert result.exit_code == 0, result.output
    text = out.read_text(encoding="utf-8")
    if "--format" not in arguments and "md" not in arguments and "json" not in arguments:
        # What a reader sees with every folded part open (the file carries them compressed);
        # highlighting splits strings into many <span>s.
        text = html.unescape(re.sub(r"<[^>]+>", "", expand_page(text)))
    return text, result.output


@pytest.mark.parametrize("form", FORMATS)
def test_no_secret_survives_by_default(tmp_path: Path, form: str) -> None:
    text, said = export(tmp_path, "-f", form)
    for secret, part in SECRETS.items():
        assert secret not in text and part not in text, f"{secret[:8]}… survived in {form}"
    assert "[REDACTED:" in text
    assert "Redacted" in said  # how many of each kind were removed
    # the rest is intact: the subagent's work, the project path, ordinary code
    assert "db.example.com" in text and DATABASE_URL not in text


@pytest.mark.parametrize("form", FORMATS)
def test_no_redact_keeps_everything(tmp_path: Path, form: str) -> None:
    text, said = export(tmp_path, "-f", form, "--no-redact")
    assert "[REDACTED:" not in text and "off" in said
    kept = [secret for secret in SECRETS if secret in text]
    # The HTML page draws Bash from its structured result, which here differs from the text the
    # model saw (where the AWS key is): that text's lines are shown apart, so nothing is lost.
    assert len(kept) == len(SECRETS)


def test_extra_pattern_and_anonymized_paths(tmp_path: Path) -> None:
    text, said = export(
        tmp_path, "-f", "json", "--redact-pattern", r"shop-order-\d+", "--anonymize-paths"
    )
    document = json.loads(text)
    assert CWD not in json.dumps(document)
    assert "~/shop" in json.dumps(document)
    assert "home-directory" in said


def test_bad_pattern_is_a_usage_error(tmp_path: Path) -> None:
    claude = write_claude_dir(tmp_path / "claude")
    session = next(claude.rglob(f"{SESSION}.jsonl"))
    result = CliRunner().invoke(main, ["export", str(session), "--redact-pattern", "("])
    assert result.exit_code == 2
    assert "--redact-pattern" in result.output


def test_bulk_export_redacts_every_page_and_the_index(tmp_path: Path) -> None:
    claude = write_claude_dir(tmp_path / "claude")
    out = tmp_path / "site"
    result = CliRunner().invoke(
        main, ["export", "--all", str(claude), "-o", str(out), "--jobs", "2", "--anonymize-paths"]
    )
    assert result.exit_code == 0, result.output
    assert "Redacted" in result.output
    pages = sorted(out.rglob("*.html"))
    assert len(pages) >= 3  # the sessions and the index
    for page in pages:
        text = html.unescape(re.sub(r"<[^>]+>", "", page.read_text(encoding="utf-8")))
        for secret, part in SECRETS.items():
            assert secret not in text and part not in text, f"{secret[:8]}… in {page.name}"
        assert "/home/alex" not in text
    assert not any("alex" in str(page.relative_to(out)) for page in pages)
