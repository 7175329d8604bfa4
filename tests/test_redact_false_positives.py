"""Ordinary code, prose and transcript structure pass through the redactor untouched."""

from __future__ import annotations

import copy
from typing import Any

import pytest

from cclens.redact import Redactor
from tests.data import fake_secrets as fake

NOT_SECRETS = [
    # Hashes and identifiers.
    "commit 3f2a9c1e8b7d6a5f4e3d2c1b0a9f8e7d6c5b4a39\nAuthor: Alice <alice@example.com>",
    "git log --oneline -3\n6ac2f59 Permissions engine\n17c1c80 Read whole files\n4121860 Tools",
    "git checkout -b fix/redaction 3f2a9c1e8b7d6a5f4e3d2c1b0a9f8e7d6c5b4a39",
    '"sessionId": "fe5e1c67-53e7-4862-81ae-d0e013e3270b", "parentUuid": null',
    "docker pull python@sha256:" + fake.pick(fake.HEX, 64),
    "sha256sum dist.tar.gz\n" + fake.pick(fake.HEX, 64) + "  dist.tar.gz",
    "md5: " + fake.pick(fake.HEX, 32) + "  sha512: " + fake.pick(fake.HEX, 128),
    '{"type": "tool_use", "id": "toolu_01A09q90qw90lq917835lq9X", "name": "Bash"}',
    '"id": "msg_01XFDUDYJgAACzvnptvVoYEL", "requestId": "req_011CUAbcdEFGhijKLmnoPQRs"',
    '{"id": "srvtoolu_01LMVmkNNSNkRH2p9FJsvMzq", "type": "server_tool_use"}',
    "chatcmpl-9Xk2LmNoPqRsTuVwXyZaBcDeFgHiJkLmN was the completion id",
    "arn:aws:iam::123456789012:role/DeployRole and AIDA-style ids are not keys",
    # Paths.
    "/Users/alice/projects/app/src/components/Button.tsx",
    r"C:\Users\bob\repo\src\main.rs",
    "/Users/chip/miniconda3/envs/claypot310/lib/python3.10/site-packages/torch/__init__.py",
    "/var/folders/4n/2f7pppjd2_n0fftzg8vrlg040000gn/T/tmpzpz61wxy/out.json",
    "~/.claude/projects/-Users-dain-workspace-claude-code-log/0d3a8e6f.jsonl",
    "node_modules/.pnpm/@babel+core@7.24.0/node_modules/@babel/core/lib/index.js",
    "/nix/store/3k9fz7qfvxw1ahc1p8r2f9v5f4nhl3mx-python3-3.11.7/bin/python3",
    # Code that names secrets without holding any.
    'def get_api_key(self) -> str:\n    return os.environ["API_KEY"]',
    "password = getpass.getpass()",
    "api_key: str | None = None",
    "def connect(host: str, password: SecretStr, token: Optional[str] = None): ...",
    "sorted(items, key=lambda item: item[1])",
    "response = client.messages.create(model=model, max_tokens=1024, messages=messages)",
    "const token = await getToken();",
    "headers: { Authorization: `Bearer ${token}` }",
    "headers = {'Authorization': f'Bearer {self.token}'}",
    "fetch(url, { credentials: 'include' })",
    "const { password } = req.body;",
    "const apiKey = process.env.OPENAI_API_KEY;",
    "self.api_key = api_key or os.getenv('ANTHROPIC_API_KEY')",
    "SECRET_KEY = os.environ.get('SECRET_KEY')",
    "password=None, token=None, api_key=None",
    "def login(user, password=password): ...",
    "user = User(email=email, password=hashed_password)",
    "let token = Token::new(kind, span);",
    "fn secret_key(&self) -> &SecretKey { &self.secret_key }",
    "tokenizer = AutoTokenizer.from_pretrained(name)\ntokens = tokenizer(text)\nn = len(tokens)",
    'tokenizer.add_special_tokens({"pad_token": "[PAD]"})\neos_token="</s>", unk_token="<unk>"',
    'test_token = "music"\nprint(f"Testing token: \'{test_token}\'")',
    "if token == \"\": raise ValueError('missing token')",
    "TOKEN_URL = 'https://oauth2.googleapis.com/token'",
    "<li key={item.id}>{item.name}</li>",
    '"sortKey": "name", primaryKey: \'id\', "key": "value", publicKey: "pk"',
    "cache_key = f'{user_id}:{page}'",
    # References to secrets kept elsewhere.
    "password: ${{ secrets.DB_PASSWORD }}",
    "token: ${{ github.token }}",
    "API_KEY=${API_KEY}",
    "export OPENAI_API_KEY=$(op read op://vault/openai/key)",
    'password: "{{ vault_db_password }}"',
    "api_key=<your-api-key>",
    "OPENAI_API_KEY=your_api_key_here",
    "DB_PASSWORD=",
    "TOKEN=xxxxxxxxxxxx",
    'curl -H "Authorization: Bearer $TOKEN" https://api.example.com',
    '-H "Authorization: Bearer ${API_TOKEN}"',
    "kubectl create secret generic db --from-literal=password=$DB_PASSWORD",
    "secret: false\npassword_required: true\nauth: oauth2\nmax_tokens: 4096",
    "export PATH=/usr/local/bin:$PATH\nPWD=/home/alice/project\nOLDPWD=/home/alice",
    "GOOGLE_APPLICATION_CREDENTIALS=/home/alice/.config/gcloud/creds.json",
    "ssh_key: ~/.ssh/id_ed25519.pub",
    # Prose that uses the words.
    "## Tokens\n\nA token is the smallest unit. Keep your secret key secret, share no password.",
    "The bearer token is sent in the Authorization header.",
    "Password: enter it below and press return.",
    "Authorization: the process of giving someone permission",
    "The `--token` flag accepts a personal access token.",
    "Run `gh auth token` to print your token.",
    "All tests pass: 42 passed in 1.3s",
    "if the tests pass: great, otherwise we revert",
    # URLs without credentials.
    "https://github.com/org/repo/blob/main/README.md",
    "ssh://git@github.com/org/repo.git and git@github.com:org/repo.git",
    "http://localhost:8080/api/v1/users?page=2&limit=50",
    "http://localhost:5173/@vite/client and http://127.0.0.1:3000/@fs/src/main.ts",
    "http://user@host.example.com/path",
    "https://x.com/Steve_Yegge/status/1977645937225822664",
    "https://docs.python.org/3/library/re.html#re.Pattern.search",
    "See https://www.npmjs.com/package/@anthropic-ai/sdk?activeTab=versions",
    # Model names.
    "model = SentenceTransformer('sentence-transformers/paraphrase-multilingual-MiniLM-L12-v2')",
    "DEFAULT_MODELS = ['Qwen/Qwen3-Next-80B-A3B-Instruct', 'HuggingFaceTB/SmolLM3-3B']",
    "model='claude-3-5-sonnet-20241022'",
    # Public key material and encoded data.
    fake.ssh_public_key(),
    fake.certificate(),
    '"integrity": "sha512-' + fake.pick(fake.BASE64, 86) + '=="',
    "golang.org/x/text v0.14.0 h1:" + fake.pick(fake.BASE64, 43) + "=",
    '<img src="data:image/png;base64,' + fake.base64_blob(3000) + '">',
    "background: url(data:image/svg+xml;base64," + fake.base64_blob(600) + ")",
    "font = '" + fake.base64_blob(4000) + "'",  # a blob longer than any key
    # Identifiers and shell output.
    "def test_redaction_of_nested_json_structures_is_idempotent_for_all_inputs():",
    "class SomeVeryLongClassNameForTestingPurposes2024: ...",
    "getServerSidePropsForDashboardPage2Component()",
    "ERR_CONNECTION_REFUSED_WHILE_FETCHING_V2_ENDPOINT",
    "total 48\ndrwxr-xr-x  5 alice staff  160 Jan  1 12:00 src\n-rw-r--r--  1 alice staff 1 a.md",
    "x = b'\\x00\\x01'\nprint(f'{x!r}')",
    "[REDACTED:github-token] was already redacted",
    "",
]


@pytest.mark.parametrize("text", NOT_SECRETS)
def test_ordinary_text_is_unchanged(text: str) -> None:
    redactor = Redactor()
    assert redactor.text(text) == text
    assert dict(redactor.counts) == {}


def transcript_records() -> list[Any]:
    return [
        {
            "type": "assistant",
            "uuid": "ea140386-c682-4f4d-b392-6c4cdb00c78e",
            "requestId": "req_011CR7mEAoQSyrfUwfi4pygb",
            "message": {
                "id": "msg_01GWgy2HPuGmy27yA3qEDbrc",
                "model": "claude-opus-4-1-20250805",
                "content": [
                    {"type": "thinking", "thinking": "Plan.", "signature": fake.base64_blob(300)},
                    {"type": "redacted_thinking", "data": fake.base64_blob(200)},
                    {"type": "text", "text": "Let me look at the key files."},
                ],
                "usage": {
                    "input_tokens": 4,
                    "cache_creation_input_tokens": 384,
                    "cache_read_input_tokens": 87326,
                    "output_tokens": 4,
                    "service_tier": "standard",
                },
            },
        },
        {
            "type": "user",
            "message": {
                "content": [
                    {
                        "type": "image",
                        "source": {
                            "type": "base64",
                            "media_type": "image/png",
                            "data": fake.base64_blob(900),
                        },
                    }
                ]
            },
            "toolUseResult": {
                "type": "image",
                "file": {"base64": fake.base64_blob(700), "type": "image/png", "originalSize": 1},
            },
        },
        {"type": "summary", "summary": "Token accounting", "leafUuid": "45ac059f-c0b1-4227"},
        {"key": "v2:stage0key", "tokens": 12, "maxThinkingTokens": 31999, "keys": ["a", "b"]},
        {"apiKey": "", "password": None, "token": "${TOKEN}", "secret": True, "authToken": 0},
        {"pad_token": "[PAD]", "auth": "oauth2", "credentials": "include"},
    ]


def test_transcript_structure_is_unchanged() -> None:
    records = transcript_records()
    original = copy.deepcopy(records)
    redactor = Redactor()
    assert redactor.json(records) == original
    assert records == original  # the input was not modified either
    assert dict(redactor.counts) == {}
