"""Redaction of secrets in everything cclens exports.

Transcripts hold whatever the agent saw: ``.env`` files it read, tokens in the commands it ran,
passwords in connection URLs. Every export passes its text through one :class:`Redactor`,
which replaces each secret with ``[REDACTED:<kind>]`` and counts what it removed::

    from cclens.redact import Redactor

    redactor = Redactor()
    safe = redactor.json(record)          # or redactor.text(markdown)
    print(dict(redactor.counts))          # {'github-token': 2, 'env-assignment': 1}

What is detected, in one pass over the text (``scanner.py``):

* credentials of some seventy provider formats (``patterns.py``: Anthropic, OpenAI, AWS,
  GitHub, GitLab, Slack, Google, Stripe, Hugging Face and more), and JWTs;
* private key blocks (PEM, OpenSSH, PGP, PuTTY), passwords in URLs, ``Authorization`` and
  ``Cookie`` headers, ``curl -u``, signed URL parameters (``structures.py``);
* values assigned to secret-named fields in ``.env``, shell, YAML, JSON, TOML, XML and code
  (``assignments.py``, ``names.py``);
* then random-looking strings no rule claimed (``entropy.py``).

The library never prints and never sends anything anywhere.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from .._lazy import lazy_names
from .options import RedactionOptions

if TYPE_CHECKING:
    from .engine import KINDS, Redactor

__all__ = ["KINDS", "RedactionOptions", "Redactor"]

# The engine (its rules) is imported when first used: the options alone load none of it.
__getattr__ = lazy_names(__name__, {"KINDS": ".engine", "Redactor": ".engine"})
