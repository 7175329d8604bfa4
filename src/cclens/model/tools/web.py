"""The web: WebFetch and WebSearch."""

from .._base import UNSET, CamelModel, Int, Model, Number, Opt
from ._spec import ToolSpec
from .files import ArtifactRef


class WebFetchInput(Model):
    """Input of ``WebFetch``: a URL and what to extract from the page."""

    url: str
    prompt: Opt[str] = UNSET
    offset: Opt[Int] = UNSET


class WebFetchResult(CamelModel):
    """Result of ``WebFetch``: the HTTP status and the model's answer about the page."""

    url: Opt[str] = UNSET
    code: Opt[Int] = UNSET
    code_text: Opt[str] = UNSET
    bytes: Opt[Int] = UNSET
    duration_ms: Opt[Number] = UNSET
    result: Opt[str] = UNSET
    artifact_read: Opt[ArtifactRef] = UNSET


class WebSearchInput(Model):
    """Input of ``WebSearch``."""

    query: str
    allowed_domains: Opt[list[str]] = UNSET
    blocked_domains: Opt[list[str]] = UNSET


class WebSearchHit(Model):
    """One page a web search found."""

    title: Opt[str] = UNSET
    url: Opt[str] = UNSET
    snippet: Opt[str] = UNSET
    page_age: Opt[str] = UNSET


class WebSearchHits(Model):
    """The pages one server-side search returned."""

    tool_use_id: Opt[str] = UNSET
    content: Opt[list[WebSearchHit]] = UNSET


class WebSearchResult(CamelModel):
    """Result of ``WebSearch``: groups of hits, interleaved with the model's commentary."""

    query: Opt[str] = UNSET
    results: Opt[list[WebSearchHits | str]] = UNSET
    duration_seconds: Opt[Number] = UNSET
    search_count: Opt[Int] = UNSET

    @property
    def hits(self) -> list[WebSearchHit]:
        """Every page found, in order."""
        found: list[WebSearchHit] = []
        for group in self.results if isinstance(self.results, list) else []:
            if isinstance(group, WebSearchHits) and isinstance(group.content, list):
                found.extend(group.content)
        return found


SPECS: tuple[ToolSpec, ...] = (
    ToolSpec(
        name="WebFetch",
        aliases=(),
        input_type=WebFetchInput,
        result_type=WebFetchResult,
        description="Fetch a URL and answer a prompt about its content",
        family="web",
    ),
    ToolSpec(
        name="WebSearch",
        aliases=(),
        input_type=WebSearchInput,
        result_type=WebSearchResult,
        description="Search the web",
        family="web",
    ),
)
