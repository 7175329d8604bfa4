"""Every fake secret, in every kind of place a transcript holds one, is redacted and counted."""

from __future__ import annotations

import base64
import json
from typing import Any

import pytest

from cclens.redact import Redactor
from tests.data import fake_secrets as fake

PROVIDERS = fake.provider_secrets()
URL_SHAPED = {"slack-webhook", "discord-webhook"}

# Places where a provider credential keeps its own kind: the marker names the provider, not
# the field it was assigned to.
CONTEXTS = {
    "bare": "{secret}",
    "prompt": "Can you check why this fails? I'm using the key {secret} in prod.",
    "export": "export SERVICE_CREDENTIAL={secret}",
    "dotenv": "# service\nSERVICE_API_KEY={secret}\nDEBUG=true\n",
    "curl bearer": 'curl -sS -H "Authorization: Bearer {secret}" https://api.example.com/v1/me',
    "curl header": "curl -H 'X-Api-Key: {secret}' https://api.example.com",
    "json text": '{{"service": {{"apiKey": "{secret}", "region": "eu"}}}}',
    "json value": '{{"value": "{secret}"}}',
    "yaml": "service:\n  api_token: {secret}\n  region: eu\n",
    "python": 'client = Client(api_key="{secret}", timeout=30)',
    "javascript": "const token = '{secret}';",
    "toml": '[service]\ntoken = "{secret}"\n',
    "url query": "https://api.example.com/v1/items?key={secret}&page=2",
    "markdown": "Set it up:\n\n```bash\nexport TOKEN={secret}\n```\n",
    "escaped json": '{{\\"token\\": \\"{secret}\\"}}',
    "docker": "docker run -e SERVICE_TOKEN={secret} app:latest",
    "log line": "2024-06-01T12:00:00Z DEBUG sending token={secret} to upstream",
    "table": "| name | value |\n|---|---|\n| key | {secret} |",
}
HEADER_CONTEXTS = {"curl bearer", "curl header"}


def provider_cases() -> list[Any]:
    cases = []
    for index, secret in enumerate(PROVIDERS):
        for name, template in CONTEXTS.items():
            if secret.kind in URL_SHAPED and name in HEADER_CONTEXTS:
                continue  # a webhook URL is not sent as a header
            cases.append(pytest.param(secret, template, id=f"{secret.kind}-{index}-{name}"))
    return cases


@pytest.mark.parametrize(("secret", "template"), provider_cases())
def test_provider_credentials_are_redacted_with_their_kind(
    secret: fake.FakeSecret, template: str
) -> None:
    redactor = Redactor()
    text = template.format(secret=secret.value)
    redacted = redactor.text(text)
    assert secret.must_vanish not in redacted
    assert redactor.counts.get(secret.kind, 0) >= 1, (redacted, dict(redactor.counts))
    assert f"[REDACTED:{secret.kind}]" in redacted


def test_webhook_urls_keep_their_host() -> None:
    slack = next(s for s in PROVIDERS if s.kind == "slack-webhook")
    redacted = Redactor().text(f"curl -X POST {slack.value} -d @payload.json")
    assert redacted.startswith(
        "curl -X POST https://hooks.slack.com/services/[REDACTED:slack-webhook]"
    )


AWS_SECRET = fake.aws_secret_access_key()
PASSWORD = fake.password()
TOKEN = fake.opaque_token()
BASIC = base64.b64encode(f"deploy:{PASSWORD}".encode()).decode()


@pytest.mark.parametrize(
    ("text", "secret", "kind"),
    [
        # AWS secret keys have no prefix: they are known by the name they are given.
        (f"export AWS_SECRET_ACCESS_KEY={AWS_SECRET}", AWS_SECRET, "aws-secret-access-key"),
        (
            f"[default]\naws_access_key_id = AKIA{fake.pick(fake.UPPER_DIGITS, 16)}\n"
            f"aws_secret_access_key = {AWS_SECRET}\n",
            AWS_SECRET,
            "aws-secret-access-key",
        ),
        (
            f'{{"Credentials": {{"AccessKeyId": "ASIA{fake.pick(fake.UPPER_DIGITS, 16)}", '
            f'"SecretAccessKey": "{AWS_SECRET}"}}}}',
            AWS_SECRET,
            "aws-secret-access-key",
        ),
        # Assignments in every syntax: only the value goes.
        (f"DB_PASSWORD={PASSWORD}", PASSWORD, "env-assignment"),
        (f'export PGPASSWORD="{PASSWORD}"', PASSWORD, "env-assignment"),
        (f"database:\n  password: {PASSWORD}\n", PASSWORD, "env-assignment"),
        (f"  password: '{PASSWORD}'  # rotate monthly", PASSWORD, "env-assignment"),
        (f'"client_secret": "{TOKEN}"', TOKEN, "env-assignment"),
        (f'api_key = "{TOKEN}"', TOKEN, "env-assignment"),
        (f"const apiKey = '{TOKEN}';", TOKEN, "env-assignment"),
        (f'token := "{TOKEN}"', TOKEN, "env-assignment"),
        (f"$password = '{PASSWORD}';", PASSWORD, "env-assignment"),
        (f"ENV['API_TOKEN'] = '{TOKEN}'", TOKEN, "env-assignment"),
        (f"config['password'] = '{PASSWORD}'", PASSWORD, "env-assignment"),
        (f"SECRET_KEY = 'django-insecure-{TOKEN}'", TOKEN, "env-assignment"),
        (f"SECRET_KEY_BASE={TOKEN}{TOKEN}", TOKEN, "env-assignment"),
        (f"mysql --password={PASSWORD} -u root", PASSWORD, "env-assignment"),
        (f"gh auth login --token {TOKEN}", TOKEN, "env-assignment"),
        (f"Server=db;Database=app;User Id=sa;Password={PASSWORD};", PASSWORD, "env-assignment"),
        (f'{{\\"password\\": \\"{PASSWORD}\\"}}', PASSWORD, "env-assignment"),
        (f"<password>{PASSWORD}</password>", PASSWORD, "env-assignment"),
        (f"<server><id>nexus</id><password>{PASSWORD}</password>", PASSWORD, "env-assignment"),
        (
            f"machine api.heroku.com\n  login me@example.com\n  password {TOKEN}\n",
            TOKEN,
            "env-assignment",
        ),
        (
            f"//registry.npmjs.org/:_authToken={fake.pick(fake.HEX, 8)}-{fake.pick(fake.HEX, 4)}"
            f"-{fake.pick(fake.HEX, 4)}-{fake.pick(fake.HEX, 4)}-{fake.pick(fake.HEX, 12)}",
            None,
            "env-assignment",
        ),
        (
            f"SENTRY_DSN=https://{fake.pick(fake.HEX, 32)}@o4507.ingest.sentry.io/4507",
            None,
            "env-assignment",
        ),
        # Passwords in URLs: scheme, user and host stay.
        (f"postgres://app:{PASSWORD}@db.internal:5432/app", PASSWORD, "url-password"),
        (f"DATABASE_URL=postgresql://app:{PASSWORD}@db/app", PASSWORD, "url-password"),
        (f"redis://:{PASSWORD}@cache:6379/0", PASSWORD, "url-password"),
        (
            f"mongodb+srv://admin:{PASSWORD}@cluster0.abcde.mongodb.net/?retryWrites=true",
            PASSWORD,
            "url-password",
        ),
        (
            f"git clone https://oauth2:{TOKEN}@gitlab.example.com/team/repo.git",
            TOKEN,
            "url-password",
        ),
        (f"amqp://guest:p@ss{PASSWORD}@rabbit:5672", PASSWORD, "url-password"),
        # HTTP authentication.
        (f'curl -H "Authorization: Bearer {TOKEN}" https://x.test', TOKEN, "bearer-token"),
        (f"Authorization: Basic {BASIC}", BASIC, "basic-auth"),
        (f'headers = {{"Authorization": "token {TOKEN}"}}', TOKEN, "bearer-token"),
        (f"wget --header='authorization: Bearer {TOKEN}' https://x.test", TOKEN, "bearer-token"),
        (f"GET /api HTTP/1.1\nAuthorization: {TOKEN}\n", TOKEN, "bearer-token"),
        (f"requests.get(url, headers={{'X': 'Bearer {TOKEN}'}})", TOKEN, "bearer-token"),
        (f"Cookie: session={TOKEN}; csrftoken=abc123def456", TOKEN, "cookie"),
        (f"curl -u admin:{PASSWORD} https://api.example.com", PASSWORD, "basic-auth"),
        (f"curl --user 'admin:{PASSWORD}' https://api.example.com", PASSWORD, "basic-auth"),
        # Signed URLs and connection strings.
        (
            f"https://acct.blob.core.windows.net/c/f.txt?sv=2022-11-02&sig={TOKEN}%3D",
            TOKEN,
            "url-token",
        ),
        (
            f"https://bucket.s3.amazonaws.com/k?X-Amz-Credential=x&X-Amz-Signature={TOKEN}",
            TOKEN,
            "url-token",
        ),
        (f"https://api.example.com/cb?access_token={TOKEN}&state=1", TOKEN, "url-token"),
        (
            "DefaultEndpointsProtocol=https;AccountName=acct;AccountKey="
            f"{fake.pick(fake.BASE64, 86)}==;EndpointSuffix=core.windows.net",
            None,
            "azure-key",
        ),
        # Random key material that no rule knows.
        (f"The key is {fake.pick(fake.BASE64, 44)} (rotated daily).", None, "high-entropy"),
        (f"id: {fake.pick(fake.BASE64URL, 64)}", None, "high-entropy"),
    ],
)
def test_secrets_in_context(text: str, secret: str | None, kind: str) -> None:
    redactor = Redactor()
    redacted = redactor.text(text)
    if secret is not None:
        assert secret not in redacted, redacted
    assert redactor.counts.get(kind, 0) >= 1, (redacted, dict(redactor.counts))


def test_assignments_keep_the_name_readable() -> None:
    redactor = Redactor()
    assert redactor.text(f"DB_PASSWORD={PASSWORD}") == "DB_PASSWORD=[REDACTED:env-assignment]"
    assert redactor.text(f'"client_secret": "{TOKEN}"') == (
        '"client_secret": "[REDACTED:env-assignment]"'
    )
    assert redactor.text(f"postgres://app:{PASSWORD}@db:5432/app") == (
        "postgres://app:[REDACTED:url-password]@db:5432/app"
    )
    assert redactor.text(f"Authorization: Bearer {TOKEN}") == (
        "Authorization: Bearer [REDACTED:bearer-token]"
    )


PRIVATE_KEYS = fake.private_keys()
KEY_CONTEXTS = {
    "bare": "{key}",
    "cat": "$ cat ~/.ssh/id_rsa\n{key}\n$ ",
    "json string": "{json}",
    "service account": '{{"type": "service_account", "private_key": {json}, "client_email": "x"}}',
    "python": 'KEY = """{key}"""',
    "yaml block": "tls:\n  key: |\n{indented}\n",
    "truncated": "{head}",
}


@pytest.mark.parametrize("context", KEY_CONTEXTS)
@pytest.mark.parametrize("key", PRIVATE_KEYS, ids=[k.splitlines()[0][:40] for k in PRIVATE_KEYS])
def test_private_key_blocks_go_whole(key: str, context: str) -> None:
    lines = key.splitlines()
    text = KEY_CONTEXTS[context].format(
        key=key,
        json=json.dumps(key),
        indented="\n".join("    " + line for line in lines),
        head="\n".join(lines[: len(lines) // 2 + 1]),  # output cut short: no END line
    )
    redactor = Redactor()
    redacted = redactor.text(text)
    for line in fake.key_body_lines(key):
        if context == "truncated" and line not in text:
            continue
        assert line not in redacted
    assert redactor.counts["private-key"] >= 1


def test_claude_code_records_are_redacted_through_json() -> None:
    github = next(s for s in PROVIDERS if s.kind == "github-token").value
    openai = next(s for s in PROVIDERS if s.kind == "openai-api-key").value
    anthropic = next(s for s in PROVIDERS if s.kind == "anthropic-api-key").value
    key = PRIVATE_KEYS[0]
    records: list[Any] = [
        {
            "type": "assistant",
            "message": {
                "content": [
                    {
                        "type": "tool_use",
                        "id": "toolu_01A09q90qw90lq917835lq9X",
                        "name": "Bash",
                        "input": {"command": f"export GITHUB_TOKEN={github} && gh pr list"},
                    }
                ]
            },
        },
        {
            "type": "user",
            "toolUseResult": {
                "type": "text",
                "file": {
                    "filePath": "/app/.env",
                    "content": f"OPENAI_API_KEY={openai}\nDB_PASSWORD={PASSWORD}\nDEBUG=1\n",
                    "numLines": 3,
                },
            },
            "message": {
                "content": [
                    {
                        "type": "tool_result",
                        "tool_use_id": "toolu_01A09q90qw90lq917835lq9X",
                        "content": [{"type": "text", "text": f"     1\tANTHROPIC_KEY={anthropic}"}],
                    }
                ]
            },
        },
        {"type": "tool_use", "name": "Write", "input": {"file_path": "k.pem", "content": key}},
        {
            "type": "tool_use",
            "name": "Edit",
            "input": {"old_string": "TOKEN=changeme", "new_string": f"TOKEN={TOKEN}"},
        },
        {"name": "WebFetch", "input": {"url": f"https://admin:{PASSWORD}@intranet.test/"}},
        {"name": "mcp__service__search", "input": {"apiKey": TOKEN, "query": "open issues"}},
        {"request": {"headers": {"Authorization": f"Bearer {TOKEN}", "Accept": "text/html"}}},
        {"nested": [[{"deeper": ({"password": PASSWORD},)}]]},
    ]
    redactor = Redactor()
    redacted = redactor.json(records)
    dumped = json.dumps(redacted, default=list)
    for secret in (github, openai, anthropic, PASSWORD, TOKEN, *fake.key_body_lines(key)):
        assert secret not in dumped
    assert redacted[0]["message"]["content"][0]["id"] == "toolu_01A09q90qw90lq917835lq9X"
    assert redacted[1]["toolUseResult"]["file"]["numLines"] == 3
    assert redacted[5]["input"] == {"apiKey": "[REDACTED:secret-field]", "query": "open issues"}
    assert redacted[6]["request"]["headers"]["Accept"] == "text/html"
    counts = dict(redactor.counts)
    for kind in ("github-token", "openai-api-key", "anthropic-api-key", "env-assignment"):
        assert counts.get(kind, 0) >= 1, counts
    assert counts["secret-field"] == 3  # apiKey, Authorization, password
    assert counts["private-key"] == 1
    assert counts["url-password"] == 1
