"""Secrets recognised by their surroundings rather than their own format.

Private key blocks, passwords inside URLs, bearer tokens, ``curl -u user:pass``, signed URL
parameters, XML elements and ``.netrc`` entries; and the regions that look random but are not
secret (public keys, certificates, ``data:`` URIs, integrity hashes), which are protected so
the entropy pass leaves them whole.
"""

from __future__ import annotations

import re
from typing import Final

from cclens.redact.assignments import BASIC_AUTH, BEARER_TOKEN, ENV_ASSIGNMENT, PRIVATE_KEY
from cclens.redact.names import is_secret_name
from cclens.redact.patterns import ALNUM, classify
from cclens.redact.scanner import KEEP, Finding, Handler, Hit, Outcome, Rule
from cclens.redact.values import is_inert, is_reference

URL_PASSWORD: Final = "url-password"
URL_TOKEN: Final = "url-token"

_MAX_BLOCK: Final = 200_000
_HTTP_CLIENT: Final = re.compile(r"\b(?:curl|wget|http|https|httpie|xh)\b")
_PORT: Final = re.compile(r"\d+(?:[?#]|$)")


# What may follow an unterminated BEGIN line (output cut short): RFC 1421 headers such as
# "Proc-Type: 4,ENCRYPTED", then base64 lines, with real or JSON-escaped line breaks.
_PEM_HEADERS: Final = re.compile(r"(?:(?:\s|\\[rn])*[A-Za-z-]+:[ \t][^\n\\]*){0,8}")
_PEM_BODY: Final = re.compile(rf"[A-Za-z0-9+/=\s\\]{{0,{_MAX_BLOCK}}}")


def _block(end_line: str) -> Handler:
    """A key block from its BEGIN line (matched by the rule) to ``end_line`` (formatted with the
    block's label). Private keys go whole; certificates and public keys are kept whole."""

    def handle(hit: Hit) -> Outcome:
        text = hit.text
        label = hit.group("label") or ""
        end_marker = end_line.format(label=label)
        # Searched with str.find and remembered for the scan: a regular expression looking
        # for the END line from every BEGIN line would be quadratic on a text of BEGIN lines.
        found = hit.memo.get(end_marker, -2)
        if found == -2 or 0 <= found < hit.end:
            found = text.find(end_marker, hit.end)
            hit.memo[end_marker] = found
        if found >= 0 and found - hit.end <= _MAX_BLOCK:
            end = found + len(end_marker)
        else:
            headers = _PEM_HEADERS.match(text, hit.end)
            body_start = headers.end() if headers else hit.end
            body = _PEM_BODY.match(text, body_start)
            end = body.end() if body else body_start
        if "PRIVATE" in label:
            return hit.redact(PRIVATE_KEY, (hit.start, end))
        return Outcome((Finding(hit.start, end, KEEP),), end)

    return handle


_PUTTY_END: Final = re.compile(r"Private-MAC: [0-9a-f]+")
# Header lines and base64 lines, with real or JSON-escaped line breaks: what is left of a
# PuTTY key whose output was cut before its MAC line.
_PUTTY_LINES: Final = re.compile(
    r"[^\n\\]*(?:(?:\r?\n|(?:\\r)?\\n)(?:[A-Za-z-]+: [^\n\\]*|[A-Za-z0-9+/=]+))*"
)


def _putty_key(hit: Hit) -> Outcome:
    """A PuTTY ``.ppk`` file, from its first line to its MAC (or as far as its lines go)."""
    text = hit.text
    window_end = min(len(text), hit.end + 20_000)
    found = _PUTTY_END.search(text, hit.end, window_end)
    if found is not None:
        end = found.end()
    else:
        lines = _PUTTY_LINES.match(text, hit.end)
        end = lines.end() if lines else hit.end
    return hit.redact(PRIVATE_KEY, (hit.start, end))


def _keep(hit: Hit) -> Outcome:
    return hit.keep()


def _url_password(hit: Hit) -> Outcome:
    """``scheme://user:pass@host`` → only ``pass`` goes."""
    if hit.start == 0 or not hit.text[hit.start - 1].isalnum():
        return hit.decline()  # "://" with no scheme before it is not a URL
    secret = hit.group("secret") or ""
    user = hit.group("user") or ""
    if is_reference(secret):
        return hit.decline(hit.span("secret")[0])
    if _PORT.match(secret) and ("." in user or user == "localhost"):
        return hit.decline(hit.span("secret")[0])  # host:port?query@…, not user:password@
    return hit.redact(URL_PASSWORD, hit.span("secret"))


def _bearer(hit: Hit) -> Outcome:
    """``Bearer <token>`` anywhere (curl flags, logs, code); prose ("bearer tokens") stays."""
    token = hit.group("secret") or ""
    kind = classify(token)
    if kind is None:
        long_enough = len(token) >= 8 and any(c.isdigit() for c in token)
        mixed = len(token) >= 20 and token != token.lower() and token != token.upper()
        if is_reference(token) or not (long_enough or mixed):
            return hit.decline(hit.span("secret")[0])
        kind = BEARER_TOKEN
    return hit.redact(kind, hit.span("secret"))


def _user_option(hit: Hit) -> Outcome:
    """``curl -u user:pass`` (only after an HTTP client, so ``docker -u 1000:1000`` stays)."""
    text = hit.text
    if hit.start > 0 and not text[hit.start - 1].isspace():
        return hit.decline()
    secret_start = hit.span("secret")[0]
    if not _http_client_on_line(hit):
        return hit.decline(secret_start)
    secret = hit.group("secret") or ""
    if is_inert(secret) or secret.isdigit():
        return hit.decline(secret_start)
    return hit.redact(BASIC_AUTH, hit.span("secret"))


def _http_client_on_line(hit: Hit) -> bool:
    """Whether ``curl``, ``wget`` or the like comes earlier on the line of ``hit``.

    Both searches go on from where the previous hit of the scan left them (in ``hit.memo``),
    so a long line of ``-u`` options costs one pass, and the answer does not depend on how
    long the secrets before it were.
    """
    text, memo = hit.text, hit.memo
    scanned = memo.get("newline-scanned", 0)
    newline = text.rfind("\n", scanned, hit.start)
    if newline >= 0:
        memo["newline-at"] = newline
    memo["newline-scanned"] = hit.start
    line_start = memo.get("newline-at", -1) + 1
    scanned = max(memo.get("client-scanned", 0), line_start)
    for found in _HTTP_CLIENT.finditer(text, scanned, hit.start):
        memo["client-at"] = found.start()
    memo["client-scanned"] = hit.start
    return memo.get("client-at", -1) >= line_start


def _url_parameter(hit: Hit) -> Outcome:
    """``?access_token=…``, ``&sig=…``, ``X-Amz-Signature=…`` in a URL."""
    secret = hit.group("secret") or ""
    if len(secret) < 12 or is_inert(secret):
        return hit.decline(hit.span("secret")[0])
    return hit.redact(classify(secret) or URL_TOKEN, hit.span("secret"))


def _xml_element(hit: Hit) -> Outcome:
    """``<password>…</password>`` as in Maven's ``settings.xml``."""
    secret = hit.group("secret") or ""
    if not is_secret_name(hit.group("tag") or "") or is_inert(secret):
        return hit.decline(hit.span("secret")[0])
    return hit.redact(classify(secret.strip()) or ENV_ASSIGNMENT, hit.span("secret"))


def _netrc(hit: Hit) -> Outcome:
    secret = hit.group("secret") or ""
    if is_inert(secret):
        return hit.decline(hit.span("secret")[0])
    return hit.redact(ENV_ASSIGNMENT, hit.span("secret"))


_XML_SECRET_TAG: Final = (
    r"(?:[A-Za-z_][\w:.-]*?)?"
    r"(?:[Pp]assword|PASSWORD|[Ss]ecret|SECRET|[Tt]oken|TOKEN|[Kk]ey|KEY|[Pp]assphrase)"
)
_URL_SECRET_PARAMETERS: Final = (
    "access_token|refresh_token|id_token|token|api_key|apikey|api-key|key|client_secret|secret"
    "|password|sig|signature|code|X-Amz-Signature|X-Amz-Credential|X-Amz-Security-Token"
    "|X-Goog-Signature|X-Goog-Credential"
)

STRUCTURE_RULES: Final[tuple[Rule, ...]] = (
    # Key blocks, also inside JSON strings where their line breaks are "\n".
    Rule(r"-----BEGIN (?P<label>[A-Z0-9 ]{1,60}?)-----", _block("-----END {label}-----")),
    Rule(r"---- BEGIN SSH2 (?P<label>[A-Z ]{1,40}?) ----", _block("---- END SSH2 {label} ----")),
    Rule(r"PuTTY-User-Key-File-\d: ", _putty_key),
    # Random-looking but public: keep them whole.
    Rule(r"ssh-(?:rsa|ed25519|dss)[ \t]+AAAA[A-Za-z0-9+/]+={0,3}", _keep),
    Rule(r"ecdsa-sha2-nistp\d{3}[ \t]+AAAA[A-Za-z0-9+/]+={0,3}", _keep),
    Rule(
        r"sk-(?:ssh-ed25519|ecdsa-sha2-nistp256)@openssh\.com[ \t]+AAAA[A-Za-z0-9+/]+={0,3}", _keep
    ),
    Rule(r"data:[\w.+-]+/[\w.+-]+(?:;[\w.+-]+=[\w.+-]+)*;base64,[A-Za-z0-9+/=]+", _keep),
    Rule(r"sha(?:1|256|384|512)-[A-Za-z0-9+/]{20,}={0,2}", _keep),
    Rule(r"h1:[A-Za-z0-9+/]{43}=", _keep),
    # Credentials in URLs and HTTP.
    Rule(
        r"://(?P<user>[^\s:/?#@\"'<>\[\]{}|\\^`]*):(?P<secret>[^\s/\"'<>\\`]+)@"
        r"(?=[A-Za-z0-9\[._~%-])",
        _url_password,
    ),
    Rule(rf"\?(?:{_URL_SECRET_PARAMETERS})=(?P<secret>[^&\s#\"'<>\\]+)", _url_parameter),
    Rule(rf"&(?:{_URL_SECRET_PARAMETERS})=(?P<secret>[^&\s#\"'<>\\]+)", _url_parameter),
    *(
        Rule(spelling + r"[ \t]+(?P<secret>[A-Za-z0-9._~+/-]+=*)", _bearer, left=ALNUM)
        for spelling in ("Bearer", "bearer", "BEARER")
    ),
    Rule(
        r"-(?:u|-user)(?:[ \t]+|=)[\"']?(?P<user>[^\s:'\"]+):(?P<secret>[^\s'\"]+)",
        _user_option,
    ),
    Rule(rf"<(?P<tag>{_XML_SECRET_TAG})>(?P<secret>[^<\n]{{1,512}})</(?P=tag)>", _xml_element),
    Rule(
        r"machine[ \t]+\S+\s+login[ \t]+\S+\s+password[ \t]+(?P<secret>\S+)",
        _netrc,
    ),
)
