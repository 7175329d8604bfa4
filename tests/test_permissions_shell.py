"""Command lines split into the simple commands that run, and normalise for matching."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from cclens.permissions.shell import normalize_command, parse_command, split_words


@pytest.mark.parametrize(
    ("command", "parts"),
    [
        ("npm test", ["npm test"]),
        ("a && b", ["a", "b"]),
        ("a || b; c | d", ["a", "b", "c", "d"]),
        ("a |& b", ["a", "b"]),
        ("sleep 1 & wait", ["sleep 1", "wait"]),
        ("a\nb", ["a", "b"]),
        ('echo "a && b; c" && ls', ['echo "a && b; c"', "ls"]),
        ("echo 'x | y'", ["echo 'x | y'"]),
        ("echo a\\;b", ["echo a\\;b"]),
        ("npm test 2>&1 | head -20", ["npm test 2>&1", "head -20"]),
        ("ls &>/dev/null", ["ls &>/dev/null"]),
        ("(cd sub && make)", ["cd sub", "make"]),
        ("if make; then make test; fi", ["make", "make test"]),
        ("cat > f <<EOF\nline; x && y\nEOF\nls", ["cat > f <<EOF\nline; x && y\nEOF", "ls"]),
        ("   ", []),
    ],
)
def test_parse_command_splits_at_top_level_operators(command: str, parts: list[str]) -> None:
    parsed = parse_command(command)
    assert parsed is not None
    assert [part.text for part in parsed.parts] == parts


def test_substitutions_are_flagged_and_their_commands_listed() -> None:
    parsed = parse_command("echo $(rm -rf /) `whoami` && diff <(ls a) b")
    assert parsed is not None
    assert [part.has_substitution for part in parsed.parts] == [True, True]
    assert [part.text for part in parsed.nested] == ["rm -rf /", "whoami", "ls a"]


def test_quoted_heredoc_commit_message_is_plain_text() -> None:
    command = "git commit -m \"$(cat <<'EOF'\nfix: don't $(break) it; ok\nEOF\n)\" && git log -1"
    parsed = parse_command(command)
    assert parsed is not None
    assert [part.text.split()[:2] for part in parsed.parts] == [["git", "commit"], ["git", "log"]]
    assert not parsed.parts[0].has_substitution
    assert parsed.nested == ()


@pytest.mark.parametrize("command", ['echo "open', "echo 'open", "echo $(open", "echo `open"])
def test_unbalanced_commands_cannot_be_split(command: str) -> None:
    assert parse_command(command) is None


@given(st.text(max_size=80))
def test_parse_command_never_raises(command: str) -> None:
    parse_command(command)


@pytest.mark.parametrize(
    ("text", "words"),
    [
        ("echo hi>out.txt 2>&1", ["echo", "hi", ">", "out.txt", "2>&", "1"]),
        ('git commit -m "a b"', ["git", "commit", "-m", '"a b"']),
        ("cat < in.txt >> log", ["cat", "<", "in.txt", ">>", "log"]),
        ("ls &>/dev/null", ["ls", "&>", "/dev/null"]),
    ],
)
def test_split_words(text: str, words: list[str]) -> None:
    assert split_words(text) == words


@pytest.mark.parametrize(
    ("text", "strip_environment", "normalized", "writes_elsewhere"),
    [
        ("npm test", False, "npm test", False),
        ("npm test 2>&1", False, "npm test", False),
        ("npm test > /dev/null 2>&1", False, "npm test", False),
        ("python x.py > out.txt", False, "python x.py", False),
        ("python x.py > /etc/passwd", False, "python x.py > /etc/passwd", True),
        ("python x.py > ../outside", False, "python x.py > ../outside", True),
        ("timeout 30 npm test", False, "npm test", False),
        ("timeout --signal=KILL 5s nice -n 10 nohup make", False, "make", False),
        ("stdbuf -oL time -p pytest", False, "pytest", False),
        ("timeout npm test", False, "timeout npm test", False),
        ("command -v git", False, "command -v git", False),
        ("xargs grep foo", False, "grep foo", False),
        ("FOO=1 BAR=2 rm -rf x", True, "rm -rf x", False),
        ("FOO=1 rm -rf x", False, "FOO=1 rm -rf x", False),
    ],
)
def test_normalize_command(
    text: str, strip_environment: bool, normalized: str, writes_elsewhere: bool
) -> None:
    result = normalize_command(text, strip_environment=strip_environment)
    assert result is not None
    assert result.text == normalized
    assert result.writes_elsewhere is writes_elsewhere
