"""Fake credentials in real formats, for the redaction tests.

Every value is made up at import time from a fixed seed, so this file holds no secret-looking
literal (nothing for a secret scanner to trip on) and the values are the same on every run.
None of them was ever issued by any provider.
"""

from __future__ import annotations

import base64
import json
import random
import string
from dataclasses import dataclass

_RANDOM = random.Random(20240611)

ALNUM = string.ascii_letters + string.digits
BASE64 = ALNUM + "+/"
BASE64URL = ALNUM + "-_"
HEX = "0123456789abcdef"
UPPER_DIGITS = string.ascii_uppercase + string.digits
BECH32 = "qpzry9x8gf2tvdw0s3jn54khce6mua7l".upper()


def pick(alphabet: str, length: int) -> str:
    """``length`` characters drawn from ``alphabet`` with the module's seeded generator."""
    while True:
        value = "".join(_RANDOM.choice(alphabet) for _ in range(length))
        # Keep each fake "random" in the way real keys are: mixed case and digits when the
        # alphabet allows them (a run of one class would be an unrealistic, flaky sample).
        classes = [set(string.ascii_lowercase), set(string.ascii_uppercase), set(string.digits)]
        usable = [c for c in classes if c & set(alphabet)]
        if length < 12 or all(c & set(value) for c in usable):
            return value


@dataclass(frozen=True)
class FakeSecret:
    """A fake credential: ``value`` as it would appear, ``kind`` the marker expected for it
    when it stands on its own, and ``sensitive`` the part that must not survive redaction."""

    kind: str
    value: str
    sensitive: str = ""

    @property
    def must_vanish(self) -> str:
        return self.sensitive or self.value


def _jwt() -> str:
    def part(data: dict[str, object]) -> str:
        raw = json.dumps(data, separators=(",", ":")).encode()
        return base64.urlsafe_b64encode(raw).decode().rstrip("=")

    header = part({"alg": "HS256", "typ": "JWT"})
    payload = part({"sub": "1234567890", "name": "Fake User", "iat": 1716000000})
    return f"{header}.{payload}.{pick(BASE64URL, 43)}"


def _discord_token() -> str:
    return f"M{pick(BASE64URL, 25)}.{pick(BASE64URL, 6)}.{pick(BASE64URL, 38)}"


def provider_secrets() -> list[FakeSecret]:
    """One fake credential per provider format the engine knows."""
    slack_path = f"T{pick(UPPER_DIGITS, 8)}/B{pick(UPPER_DIGITS, 10)}/{pick(ALNUM, 24)}"
    discord_secret = pick(BASE64URL, 68)
    return [
        FakeSecret("anthropic-api-key", "sk-ant-api03-" + pick(BASE64URL, 93) + "AA"),
        FakeSecret("anthropic-api-key", "sk-ant-admin01-" + pick(BASE64URL, 93) + "AA"),
        FakeSecret("anthropic-api-key", "sk-ant-oat01-" + pick(BASE64URL, 95)),
        FakeSecret(
            "openai-api-key", "sk-proj-" + pick(BASE64URL, 74) + "T3BlbkFJ" + pick(BASE64URL, 74)
        ),
        FakeSecret(
            "openai-api-key", "sk-svcacct-" + pick(BASE64URL, 74) + "T3BlbkFJ" + pick(BASE64URL, 74)
        ),
        FakeSecret("openai-api-key", "sk-" + pick(ALNUM, 20) + "T3BlbkFJ" + pick(ALNUM, 20)),
        FakeSecret("openrouter-api-key", "sk-or-v1-" + pick(HEX, 64)),
        FakeSecret("api-key", "sk-" + pick(ALNUM, 48)),
        FakeSecret("groq-api-key", "gsk_" + pick(ALNUM, 52)),
        FakeSecret("xai-api-key", "xai-" + pick(ALNUM, 80)),
        FakeSecret("replicate-token", "r8_" + pick(ALNUM, 37)),
        FakeSecret("perplexity-api-key", "pplx-" + pick(ALNUM, 48)),
        FakeSecret("huggingface-token", "hf_" + pick(ALNUM, 34)),
        FakeSecret("langsmith-api-key", f"lsv2_pt_{pick(HEX, 32)}_{pick(HEX, 10)}"),
        FakeSecret("pinecone-api-key", "pcsk_" + pick(ALNUM, 6) + "_" + pick(ALNUM, 60)),
        FakeSecret("firecrawl-api-key", "fc-" + pick(HEX, 32)),
        FakeSecret("tavily-api-key", "tvly-" + pick(ALNUM, 32)),
        FakeSecret("aws-access-key-id", "AKIA" + pick(UPPER_DIGITS, 16)),
        FakeSecret("aws-access-key-id", "ASIA" + pick(UPPER_DIGITS, 16)),
        FakeSecret("google-api-key", "AIza" + pick(BASE64URL, 35)),
        FakeSecret("google-oauth-secret", "GOCSPX-" + pick(BASE64URL, 28)),
        FakeSecret("google-oauth-token", "ya29." + pick(BASE64URL, 120)),
        FakeSecret("digitalocean-token", "dop_v1_" + pick(HEX, 64)),
        FakeSecret("heroku-api-key", "HRKU-AA" + pick(BASE64URL, 58)),
        FakeSecret("databricks-token", "dapi" + pick(HEX, 32)),
        FakeSecret("vault-token", "hvs." + pick(BASE64URL, 90)),
        FakeSecret("doppler-token", "dp.pt." + pick(ALNUM, 43)),
        FakeSecret("supabase-token", "sbp_" + pick(HEX, 40)),
        FakeSecret("netlify-token", "nfp_" + pick(ALNUM, 40)),
        FakeSecret("tailscale-key", f"tskey-auth-{pick(ALNUM, 12)}-{pick(ALNUM, 30)}"),
        FakeSecret("docker-token", "dckr_pat_" + pick(BASE64URL, 27)),
        FakeSecret("age-secret-key", "AGE-SECRET-KEY-1" + pick(BECH32, 58)),
        FakeSecret("1password-token", "ops_eyJ" + pick(BASE64, 200)),
        FakeSecret("github-token", "ghp_" + pick(ALNUM, 36)),
        FakeSecret("github-token", "gho_" + pick(ALNUM, 36)),
        FakeSecret("github-token", "ghs_" + pick(ALNUM, 36)),
        FakeSecret("github-token", f"github_pat_{pick(ALNUM, 22)}_{pick(ALNUM, 59)}"),
        FakeSecret("gitlab-token", "glpat-" + pick(BASE64URL, 20)),
        FakeSecret("atlassian-token", "ATATT3" + pick(BASE64URL, 180) + "=" + pick(HEX, 8).upper()),
        FakeSecret("atlassian-token", "ATBB" + pick(ALNUM, 32)),
        FakeSecret("npm-token", "npm_" + pick(ALNUM, 36)),
        FakeSecret("pypi-token", "pypi-AgEIcHlwaS5vcmc" + pick(BASE64URL, 120)),
        FakeSecret(
            "slack-token",
            f"xoxb-{pick(string.digits, 12)}-{pick(string.digits, 13)}-{pick(ALNUM, 24)}",
        ),
        FakeSecret(
            "slack-token",
            f"xoxp-{pick(string.digits, 12)}-{pick(string.digits, 12)}-"
            f"{pick(string.digits, 13)}-{pick(HEX, 32)}",
        ),
        FakeSecret("slack-webhook", "https://hooks.slack.com/services/" + slack_path, slack_path),
        FakeSecret("discord-token", _discord_token()),
        FakeSecret(
            "discord-webhook",
            f"https://discord.com/api/webhooks/{pick(string.digits, 18)}/{discord_secret}",
            discord_secret,
        ),
        FakeSecret(
            "telegram-bot-token",
            f"{pick('123456789', 1)}{pick(string.digits, 9)}:AA{pick(BASE64URL, 33)}",
        ),
        FakeSecret("stripe-key", "sk_live_" + pick(ALNUM, 24)),
        FakeSecret("stripe-key", "sk_test_" + pick(ALNUM, 99)),
        FakeSecret("stripe-key", "rk_live_" + pick(ALNUM, 24)),
        FakeSecret("stripe-key", "pk_live_" + pick(ALNUM, 24)),
        FakeSecret("stripe-key", "whsec_" + pick(ALNUM, 32)),
        FakeSecret("square-token", "sq0csp-" + pick(BASE64URL, 43)),
        FakeSecret("square-token", "EAAA" + pick(BASE64URL, 60)),
        FakeSecret("shopify-token", "shpat_" + pick(HEX, 32)),
        FakeSecret("twilio-key", "SK" + pick(HEX, 32)),
        FakeSecret("twilio-key", "AC" + pick(HEX, 32)),
        FakeSecret("sendgrid-api-key", f"SG.{pick(BASE64URL, 22)}.{pick(BASE64URL, 43)}"),
        FakeSecret("mailgun-api-key", "key-" + pick(HEX, 32)),
        FakeSecret("mailchimp-api-key", pick(HEX, 32) + "-us12"),
        FakeSecret("postman-api-key", f"PMAK-{pick(HEX, 24)}-{pick(HEX, 34)}"),
        FakeSecret("linear-api-key", "lin_api_" + pick(ALNUM, 40)),
        FakeSecret("notion-token", "ntn_" + pick(string.digits, 11) + pick(ALNUM, 35)),
        FakeSecret("notion-token", "secret_" + pick(ALNUM, 43)),
        FakeSecret("airtable-token", f"pat{pick(ALNUM, 14)}.{pick(HEX, 64)}"),
        FakeSecret("figma-token", "figd_" + pick(BASE64URL, 40)),
        FakeSecret("dropbox-token", "sl." + pick(BASE64URL, 140)),
        FakeSecret("resend-api-key", f"re_{pick(ALNUM, 8)}_{pick(ALNUM, 24)}"),
        FakeSecret("sentry-token", "sntrys_eyJ" + pick(BASE64, 80)),
        FakeSecret("grafana-token", "glc_" + pick(BASE64, 60) + "=="),
        FakeSecret("grafana-token", f"glsa_{pick(ALNUM, 32)}_{pick(HEX, 8)}"),
        FakeSecret("newrelic-key", "NRAK-" + pick(UPPER_DIGITS, 27)),
        FakeSecret("mapbox-token", f"sk.eyJ{pick(BASE64URL, 60)}.{pick(BASE64URL, 22)}"),
        FakeSecret("jwt", _jwt()),
    ]


def aws_secret_access_key() -> str:
    return pick(BASE64, 40)


def opaque_token(length: int = 40) -> str:
    """A token with no provider prefix, as bearer tokens and session secrets are."""
    return pick(ALNUM, length)


def password() -> str:
    """A human-made password: letters, digits and a symbol."""
    return pick(string.ascii_letters, 6) + pick(string.digits, 3) + _RANDOM.choice("!#%+-")


def _pem_body(lines: int) -> str:
    body = [pick(BASE64, 64) for _ in range(lines)]
    body.append(pick(BASE64, 40) + "==")
    return "\n".join(body)


def private_keys() -> list[str]:
    """PEM, OpenSSH, PGP and PuTTY private key blocks with random bodies."""
    return [
        f"-----BEGIN RSA PRIVATE KEY-----\n{_pem_body(12)}\n-----END RSA PRIVATE KEY-----",
        f"-----BEGIN PRIVATE KEY-----\n{_pem_body(8)}\n-----END PRIVATE KEY-----",
        f"-----BEGIN EC PRIVATE KEY-----\n{_pem_body(3)}\n-----END EC PRIVATE KEY-----",
        f"-----BEGIN ENCRYPTED PRIVATE KEY-----\n{_pem_body(6)}\n"
        "-----END ENCRYPTED PRIVATE KEY-----",
        f"-----BEGIN OPENSSH PRIVATE KEY-----\nb3BlbnNzaC1rZXktdjEAAAAA{_pem_body(5)}\n"
        "-----END OPENSSH PRIVATE KEY-----",
        "-----BEGIN RSA PRIVATE KEY-----\nProc-Type: 4,ENCRYPTED\nDEK-Info: AES-128-CBC,"
        f"{pick(HEX, 32).upper()}\n\n{_pem_body(10)}\n-----END RSA PRIVATE KEY-----",
        f"-----BEGIN PGP PRIVATE KEY BLOCK-----\n\n{_pem_body(20)}\n=AbCd\n"
        "-----END PGP PRIVATE KEY BLOCK-----",
        "PuTTY-User-Key-File-2: ssh-rsa\nEncryption: none\nComment: fake\n"
        f"Public-Lines: 2\n{_pem_body(1)}\n"
        f"Private-Lines: 3\n{_pem_body(2)}\nPrivate-MAC: {pick(HEX, 40)}",
    ]


def key_body_lines(block: str) -> list[str]:
    """The base64 lines of a key block: each must vanish with the block."""
    return [line for line in block.splitlines() if len(line) >= 40 and " " not in line]


def certificate() -> str:
    """A public certificate block: random-looking but not secret."""
    return f"-----BEGIN CERTIFICATE-----\n{_pem_body(10)}\n-----END CERTIFICATE-----"


def ssh_public_key() -> str:
    return "ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAI" + pick(BASE64, 43) + " alice@laptop"


def base64_blob(size: int) -> str:
    """``size`` random bytes in base64, like an inline image."""
    return base64.b64encode(_RANDOM.randbytes(size)).decode()
