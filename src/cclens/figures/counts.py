"""What one session counts, as its header says on every surface (the web page, ``cclens
show``, Markdown and HTML exports, the export's index).

A session counts each response, tool call and prompt it was the first in its project to record
(:mod:`cclens.figures.identity`), its subagents' included: the same figures the lists, the API
and the usage reports give it. What its files hold that another session counts — the history a
resumed session copied from the one it continued — is *carried over*: shown as a figure of its
own, never added in, and naming the sessions that count it.

The index computes these for a session it holds (:meth:`cclens.index.Index.counts`); a
transcript read without the index has only :func:`counts_alone`: nothing to compare it with,
everything it holds counts, and ``alone`` says so.
"""

from __future__ import annotations

from collections.abc import Iterable

import msgspec

from ..model.session import Session
from .aggregate import PricedResponse
from .figures import Figures, figures_by_session, tally
from .pricing import PriceTable


class SessionCounts(msgspec.Struct, kw_only=True):
    """What a session counts (``figures``, subagents included), the part of it its subagents
    hold (``subagents``: their responses and tokens), and what it carries over from other
    sessions (``carried``, counted by the sessions ``carried_from`` names).

    ``alone``: the session was read on its own, compared with no other session, so what it
    copied from another counts here too. ``carried_from`` is sorted.
    """

    figures: Figures = msgspec.field(default_factory=Figures)
    subagents: Figures = msgspec.field(default_factory=Figures)
    carried: Figures = msgspec.field(default_factory=Figures)
    carried_from: tuple[str, ...] = ()
    alone: bool = False


def _subagent_part(session: Session, responses: Iterable[PricedResponse]) -> Figures:
    part = Figures()
    for priced in responses:
        if priced.response.agent_id != session.agent_id:
            part.add_response(priced)
    return part


def counts_alone(session: Session, prices: PriceTable | None = None) -> SessionCounts:
    """The counts of ``session`` read on its own (see the module docstring)."""
    counted = tally([session], prices)
    figures = figures_by_session(counted)[session.path]
    return SessionCounts(
        figures=figures, subagents=_subagent_part(session, counted.responses), alone=True
    )


__all__ = ["SessionCounts", "counts_alone"]
