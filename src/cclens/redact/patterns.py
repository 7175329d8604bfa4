"""Formats of provider credentials: the vendored, documented pattern table.

Why a vendored table rather than a dependency on ``detect-secrets``
--------------------------------------------------------------------
Yelp's ``detect-secrets`` (1.5.0) was evaluated as the source of these patterns. Its plugins
do expose their regular expressions (``detect_secrets.plugins.<name>.<Class>.denylist``) and
several entries below started from them, but depending on it does not fit this engine:

* Coverage. It has no detector for Anthropic, Hugging Face, Google, DigitalOcean, Databricks,
  Shopify, Heroku, Doppler, Vault and most AI-provider keys, and no Stripe test keys.
* Accuracy on today's keys. Its OpenAI pattern matches a 48-character window around
  ``T3BlbkFJ``, so a 164-character ``sk-proj-…`` key would be redacted only in part; its Slack
  and private-key patterns match a prefix, not the whole secret, so they cannot drive a
  replacement.
* Shape of the API. Plugins scan line by line and report secret values, not offsets; the
  regular expressions are class attributes rather than a documented interface; settings are
  process-global. Run as a scanner it managed about 0.26 MB/s here, two orders of magnitude
  short of what an export of a long session needs.
* Weight. It pulls in ``requests`` and ``pyyaml`` at run time for verification features this
  library must never use (redaction works offline and never sends a secret anywhere).

So cclens keeps its own table, one row per format, each naming where the format comes from, and
compiles every row into a single scanning expression (see ``scanner.py``). The test suite
checks, when ``detect-secrets`` happens to be installed, that every secret its detectors flag in
our fake corpus is also redacted here.

How to add a row
----------------
``regex`` must start with a literal character or a small character class (``[MNO]``): the
scanner groups rows by first character so that Python's regular-expression engine can skip
ahead quickly. A row may name a group ``secret``; only that group is then replaced (used for
webhook URLs, whose host stays readable). ``left`` and ``right`` list the characters that may
not touch the token on either side, so a pattern never fires inside a longer identifier.
"""

from __future__ import annotations

import functools
import re
from typing import Final

import msgspec

from cclens.redact.scanner import Anchor

ALNUM: Final = "A-Za-z0-9"
"""Characters that may not touch a token: next to one of these it is part of something
longer. ``_`` may touch one (``TOKEN_ghp_…_old`` still holds a token)."""


class TokenPattern(msgspec.Struct, frozen=True):
    """One credential format.

    Attributes:
        kind: what the redaction marker calls it, ``[REDACTED:<kind>]``.
        regex: the format; see the module docstring for the rules it must follow.
        source: where the format is documented or which maintained ruleset it follows.
        left: characters (a regex class body) that may not directly precede a match.
        right: characters (a regex class body) that may not directly follow a match.
        lead: a part of the format that comes before ``regex`` and is checked by looking back
            from a match of ``regex``. Formats whose distinctive part is in the middle
            (``<32 hex>-us1``) are scanned for that part: a rule starting with a common class
            such as ``[0-9a-f]`` would slow the whole scan down by half.
        anchor: for a format whose start is common (``[MNO]``, ``pat``), a rarer part of it
            and how far from the start it stands, which the scanner looks for instead (see
            :class:`~cclens.redact.scanner.Anchor`).
    """

    kind: str
    regex: str
    source: str
    left: str = ALNUM
    right: str = ALNUM
    lead: str = ""
    anchor: Anchor | None = None

    @property
    def full_regex(self) -> str:
        """The whole format, lead included."""
        return self.lead + self.regex


_DS = "detect-secrets 1.5.0"
_GL = "gitleaks default rules"

TOKEN_PATTERNS: Final[tuple[TokenPattern, ...]] = (
    # AI providers. Anthropic first: its keys also start with ``sk-``.
    TokenPattern(
        "anthropic-api-key",
        r"sk-ant-[A-Za-z0-9_-]{20,}",
        "Anthropic console key formats sk-ant-api03-, -admin01-, -oat01-",
    ),
    TokenPattern("openrouter-api-key", r"sk-or-v1-[a-f0-9]{64}", "OpenRouter key format"),
    TokenPattern(
        "openai-api-key",
        r"sk-(?:proj|svcacct|admin|None)-[A-Za-z0-9_-]{20,}",
        "OpenAI project and service-account keys",
    ),
    TokenPattern(
        "openai-api-key",
        r"sk-[A-Za-z0-9_-]{0,200}T3BlbkFJ[A-Za-z0-9_-]{1,200}",
        f"{_DS} OpenAIDetector (whole key, not a window)",
    ),
    TokenPattern(
        "api-key",
        r"sk-[A-Za-z0-9]{32,}",
        "sk-<32+> keys of OpenAI-compatible APIs (DeepSeek, Moonshot, legacy OpenAI)",
    ),
    TokenPattern("groq-api-key", r"gsk_[A-Za-z0-9]{48,}", _GL),
    TokenPattern("xai-api-key", r"xai-[A-Za-z0-9]{70,}", "xAI key format"),
    TokenPattern("replicate-token", r"r8_[A-Za-z0-9]{37}", "Replicate token format"),
    TokenPattern("perplexity-api-key", r"pplx-[A-Za-z0-9]{40,}", "Perplexity key format"),
    TokenPattern("huggingface-token", r"hf_[A-Za-z0-9]{30,}", _GL),
    TokenPattern("huggingface-token", r"api_org_[A-Za-z0-9]{30,}", _GL),
    TokenPattern(
        "langsmith-api-key", r"lsv2_(?:pt|sk)_[a-f0-9]{32}_[a-f0-9]{10}", "LangSmith key format"
    ),
    TokenPattern("pinecone-api-key", r"pcsk_[A-Za-z0-9_]{50,}", "Pinecone key format"),
    TokenPattern("firecrawl-api-key", r"fc-[a-f0-9]{32}", "Firecrawl key format"),
    TokenPattern("tavily-api-key", r"tvly-[A-Za-z0-9-]{30,}", "Tavily key format"),
    # Cloud platforms.
    TokenPattern(
        "aws-access-key-id", r"A(?:3T[A-Z0-9]|KIA|SIA|BIA|CCA)[A-Z0-9]{16}", f"{_DS} AWSKeyDetector"
    ),
    TokenPattern("google-api-key", r"AIza[0-9A-Za-z_-]{35}", _GL),
    TokenPattern("google-oauth-secret", r"GOCSPX-[A-Za-z0-9_-]{28}", _GL),
    TokenPattern("google-oauth-token", r"ya29\.[0-9A-Za-z_-]{20,}", _GL),
    TokenPattern(
        "google-oauth-token",
        r"1//0[A-Za-z0-9_-]{40,}",
        "Google OAuth refresh token format",
        left=ALNUM + "/",
    ),
    TokenPattern(
        "azure-key",
        r"AccountKey=(?P<secret>[A-Za-z0-9+/]{20,}={0,2})",
        f"{_DS} AzureStorageKeyDetector",
        right="",
    ),
    TokenPattern(
        "azure-key",
        r"SharedAccessKey=(?P<secret>[A-Za-z0-9+/]{20,}={0,2})",
        "Azure Service Bus and Event Hubs connection strings",
        right="",
    ),
    TokenPattern("digitalocean-token", r"do[opr]_v1_[a-f0-9]{64}", _GL),
    TokenPattern("heroku-api-key", r"HRKU-[A-Za-z0-9_-]{20,}", "Heroku API key format (2024)"),
    TokenPattern("databricks-token", r"dapi[a-f0-9]{32}(?:-\d)?", _GL),
    TokenPattern("vault-token", r"hv[sbr]\.[A-Za-z0-9_-]{24,}", "HashiCorp Vault token format"),
    TokenPattern("doppler-token", r"dp\.(?:pt|st|sa|ct|scim|audit)\.[A-Za-z0-9]{40,}", _GL),
    TokenPattern("supabase-token", r"sbp_[a-f0-9]{40}", "Supabase access token format"),
    TokenPattern("supabase-token", r"sb_secret_[A-Za-z0-9_-]{20,}", "Supabase secret key format"),
    TokenPattern("netlify-token", r"nfp_[A-Za-z0-9]{36,}", "Netlify token format"),
    TokenPattern("tailscale-key", r"tskey-[A-Za-z0-9-]{20,}", "Tailscale key format"),
    TokenPattern("docker-token", r"dckr_pat_[A-Za-z0-9_-]{27,}", "Docker Hub token format"),
    TokenPattern("age-secret-key", r"AGE-SECRET-KEY-1[QPZRY9X8GF2TVDW0S3JN54KHCE6MUA7L]{58}", _GL),
    TokenPattern(
        "1password-token", r"ops_eyJ[A-Za-z0-9+/=_-]{50,}", "1Password service account token format"
    ),
    # Code hosting and package registries.
    TokenPattern("github-token", r"gh[pousr]_[A-Za-z0-9]{36,255}", f"{_DS} GitHubTokenDetector"),
    TokenPattern(
        "github-token", r"github_pat_[A-Za-z0-9_]{22,255}", "GitHub fine-grained token format"
    ),
    TokenPattern(
        "gitlab-token",
        r"gl(?:pat|dt|ft|soat|rt|cbt|imt|ptt|agent|oas)-[A-Za-z0-9_-]{20,}",
        f"{_DS} GitLabTokenDetector",
    ),
    TokenPattern("gitlab-token", r"GR1348941[A-Za-z0-9_-]{20,}", f"{_DS} GitLabTokenDetector"),
    TokenPattern("atlassian-token", r"ATATT3[A-Za-z0-9_=-]{100,}", _GL),
    TokenPattern("atlassian-token", r"ATBB[A-Za-z0-9_=.-]{28,}", _GL),
    TokenPattern("npm-token", r"npm_[A-Za-z0-9]{36}", f"{_DS} NpmDetector"),
    TokenPattern(
        "pypi-token",
        r"pypi-AgE[A-Za-z0-9_-]{50,}",
        f"{_DS} PypiTokenDetector (pypi.org and test.pypi.org)",
    ),
    # Messaging, payments and SaaS.
    TokenPattern("slack-token", r"xox[abposr]-[A-Za-z0-9-]{10,}", f"{_DS} SlackDetector"),
    TokenPattern("slack-token", r"xapp-\d-[A-Za-z0-9-]{10,}", "Slack app-level token format"),
    TokenPattern(
        "slack-webhook",
        r"https://hooks\.slack\.com/(?:services|workflows|triggers)/(?P<secret>[A-Za-z0-9_/-]{8,})",
        f"{_DS} SlackDetector",
        left="",
    ),
    TokenPattern(
        "discord-webhook",
        r"https://(?:ptb\.|canary\.)?discord(?:app)?\.com/api/webhooks/\d+/(?P<secret>[A-Za-z0-9_-]{20,})",
        _GL,
        left="",
    ),
    TokenPattern(
        "discord-token",
        r"[MNO][A-Za-z0-9_-]{23,25}\.[A-Za-z0-9_-]{6}\.[A-Za-z0-9_-]{27,38}",
        f"{_DS} DiscordBotTokenDetector",
        right=ALNUM + "-",
        # The dot after the first part: 24 to 26 characters in.
        anchor=Anchor(r"\.[A-Za-z0-9_-]{6}\.", 24, 26),
    ),
    TokenPattern(
        "telegram-bot-token",
        r":AA[A-Za-z0-9_-]{33}",
        f"{_DS} TelegramBotTokenDetector; the secret half starts with AA",
        left="0-9",
        right=ALNUM + "-",
        lead=r"[1-9]\d{7,9}",
    ),
    TokenPattern(
        "stripe-key",
        r"[prs]k_(?:live|test)_[0-9A-Za-z]{10,}",
        f"{_DS} StripeDetector, with test and publishable keys",
    ),
    TokenPattern("stripe-key", r"whsec_[A-Za-z0-9]{32,}", "Stripe webhook signing secret format"),
    TokenPattern(
        "square-token", r"sq0(?:atp|csp|idp)-[0-9A-Za-z_-]{22,43}", f"{_DS} SquareOAuthDetector"
    ),
    TokenPattern("square-token", r"EAAA[A-Za-z0-9_-]{60}", _GL),
    TokenPattern("shopify-token", r"shp(?:at|ca|pa|ss)_[a-fA-F0-9]{32}", _GL),
    TokenPattern("twilio-key", r"AC[0-9a-f]{32}", f"{_DS} TwilioKeyDetector (account SID)"),
    TokenPattern("twilio-key", r"SK[0-9a-f]{32}", f"{_DS} TwilioKeyDetector (API key SID)"),
    TokenPattern(
        "sendgrid-api-key", r"SG\.[A-Za-z0-9_-]{22}\.[A-Za-z0-9_-]{43}", f"{_DS} SendGridDetector"
    ),
    TokenPattern("mailgun-api-key", r"key-[0-9a-f]{32}", _GL),
    TokenPattern(
        "mailchimp-api-key", r"-us\d{1,2}", f"{_DS} MailchimpDetector", lead=r"[0-9a-f]{32}"
    ),
    TokenPattern("postman-api-key", r"PMAK-[a-f0-9]{24}-[a-f0-9]{34}", _GL),
    TokenPattern("linear-api-key", r"lin_api_[A-Za-z0-9]{40}", _GL),
    TokenPattern("notion-token", r"ntn_[A-Za-z0-9]{40,}", "Notion integration token format (2024)"),
    TokenPattern(
        "notion-token", r"secret_[A-Za-z0-9]{43}", "Notion integration token format (legacy)"
    ),
    TokenPattern(
        "airtable-token",
        r"pat[A-Za-z0-9]{14}\.[a-f0-9]{64}",
        _GL,
        anchor=Anchor(r"\.[a-f0-9]{64}", 17, 17),  # "pat" starts "path" and "pattern"
    ),
    TokenPattern("figma-token", r"figd_[A-Za-z0-9_-]{40,}", _GL),
    TokenPattern("dropbox-token", r"sl\.[A-Za-z0-9_-]{130,}", _GL),
    TokenPattern("resend-api-key", r"re_[A-Za-z0-9]{8}_[A-Za-z0-9]{24}", "Resend key format"),
    TokenPattern(
        "sentry-token", r"sntr(?:ys|yu)_[A-Za-z0-9+/=_-]{40,}", "Sentry auth token format"
    ),
    TokenPattern("grafana-token", r"glc_[A-Za-z0-9+/]{32,}={0,2}", _GL),
    TokenPattern("grafana-token", r"glsa_[A-Za-z0-9]{32}_[A-Fa-f0-9]{8}", _GL),
    TokenPattern("newrelic-key", r"NRAK-[A-Z0-9]{27}", _GL),
    TokenPattern("mapbox-token", r"sk\.eyJ[A-Za-z0-9_-]{50,}\.[A-Za-z0-9_-]{20,}", _GL),
    # Generic signed tokens. A JWT's header and payload are base64url JSON objects: ``eyJ`` is
    # ``{"``, which keeps random text from matching.
    TokenPattern(
        "jwt",
        r"eyJ[A-Za-z0-9_-]{8,}\.eyJ[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]*",
        f"{_DS} JwtTokenDetector, payload required to be JSON",
        right=ALNUM + "-",
    ),
)


@functools.cache
def _classifier() -> tuple[re.Pattern[str], tuple[str, ...]]:
    """One expression that tells which format a whole value has (used for assignment values);
    compiled when first needed (a text with no assignment to judge never needs it)."""
    kinds: list[str] = []
    branches: list[str] = []
    for index, pattern in enumerate(TOKEN_PATTERNS):
        # Inner group names would clash across rows; the classifier does not need them.
        body = re.sub(r"\(\?P<\w+>", "(?:", pattern.full_regex)
        branches.append(f"(?P<k{index}>{body})")
        kinds.append(pattern.kind)
    return re.compile("|".join(branches)), tuple(kinds)


def classify(value: str) -> str | None:
    """The kind of the credential that ``value`` consists of, or ``None``.

    >>> classify("ghp_" + "a1B2" * 9)
    'github-token'
    >>> classify("hello") is None
    True
    """
    classifier, kinds = _classifier()
    match = classifier.fullmatch(value)
    if match is None or match.lastgroup is None:
        return None
    return kinds[int(match.lastgroup[1:])]
