"""Files and notebooks: Read, Write, Edit, MultiEdit, LS and NotebookEdit."""

from typing import Any, TypeAlias, Union

from .._base import UNSET, CamelModel, Int, Model, Opt, value
from ._spec import ToolSpec


class Hunk(CamelModel):
    """One hunk of a unified diff; ``lines`` start with ``+``, ``-`` or a space."""

    old_start: Opt[Int] = UNSET
    old_lines: Opt[Int] = UNSET
    new_start: Opt[Int] = UNSET
    new_lines: Opt[Int] = UNSET
    lines: Opt[list[str]] = UNSET

    @property
    def added(self) -> int:
        """How many lines the hunk adds."""
        return sum(1 for line in value(self.lines, []) if line.startswith("+"))

    @property
    def removed(self) -> int:
        """How many lines the hunk removes."""
        return sum(1 for line in value(self.lines, []) if line.startswith("-"))


class GitDiff(Model):
    """The change a file edit made, as git sees it."""

    filename: Opt[str] = UNSET
    status: Opt[str] = UNSET
    additions: Opt[Int] = UNSET
    deletions: Opt[Int] = UNSET
    changes: Opt[Int] = UNSET
    patch: Opt[str] = UNSET
    repository: Opt[str] = UNSET


# Read ------------------------------------------------------------------------------------------


class ReadInput(Model):
    """Input of ``Read``: a file, and optionally a line range or PDF pages."""

    file_path: str
    offset: Opt[Int] = UNSET
    limit: Opt[Int] = UNSET
    pages: Opt[str] = UNSET
    allow_large: Opt[bool] = UNSET
    #: Sent by some models although the tool never declared it.
    description: Opt[str] = UNSET


class ArtifactRef(Model):
    """The saved Artifact (and version) that a read completed."""

    slug: Opt[str] = UNSET
    ver: Opt[str] = UNSET
    seeded: Opt[bool] = UNSET


class TextFile(CamelModel):
    """The text part of a file that ``Read`` returned."""

    file_path: Opt[str] = UNSET
    content: Opt[str] = UNSET
    num_lines: Opt[Int] = UNSET
    start_line: Opt[Int] = UNSET
    total_lines: Opt[Int] = UNSET
    truncated_by_token_cap: Opt[bool] = UNSET


class ReadResult(CamelModel, tag_field="type"):
    """Base of ``Read`` results, told apart by ``type``."""

    @property
    def file_path(self) -> str | None:
        """The path that was read, when the result records it."""
        path = getattr(getattr(self, "file", None), "file_path", None)
        return path if isinstance(path, str) else None


class ReadTextResult(ReadResult, tag="text"):
    """A text file (or a line range of it) that ``Read`` returned."""

    file: Opt[TextFile] = UNSET
    artifact_read: Opt[ArtifactRef] = UNSET

    @property
    def start_line(self) -> int:
        """The first line returned (1-based)."""
        return value(self.file.start_line, 1) if isinstance(self.file, TextFile) else 1

    @property
    def content(self) -> str:
        """The text returned."""
        return value(self.file.content, "") if isinstance(self.file, TextFile) else ""


class ImageDimensions(CamelModel):
    """An image's size as stored and as shown to the model."""

    original_width: Opt[Int] = UNSET
    original_height: Opt[Int] = UNSET
    display_width: Opt[Int] = UNSET
    display_height: Opt[Int] = UNSET


class ImageFile(CamelModel):
    """An image that ``Read`` returned, base64-encoded."""

    base64: Opt[str] = UNSET
    type: Opt[str] = UNSET
    original_size: Opt[Int] = UNSET
    dimensions: Opt[ImageDimensions] = UNSET
    file_path: Opt[str] = UNSET


class ReadImageResult(ReadResult, tag="image"):
    """An image that ``Read`` returned (base64 data and its media type)."""

    file: Opt[ImageFile] = UNSET


class NotebookFile(CamelModel):
    """A notebook that ``Read`` returned."""

    file_path: Opt[str] = UNSET
    cells: Opt[list[Any]] = UNSET


class ReadNotebookResult(ReadResult, tag="notebook"):
    """A Jupyter notebook that ``Read`` returned, cell by cell."""

    file: Opt[NotebookFile] = UNSET


class PdfFile(CamelModel):
    """A PDF that ``Read`` returned whole, base64-encoded."""

    file_path: Opt[str] = UNSET
    base64: Opt[str] = UNSET
    original_size: Opt[Int] = UNSET


class ReadPdfResult(ReadResult, tag="pdf"):
    """A whole PDF that ``Read`` returned."""

    file: Opt[PdfFile] = UNSET


class PartsFile(CamelModel):
    """A PDF whose pages ``Read`` extracted to ``output_dir``."""

    file_path: Opt[str] = UNSET
    original_size: Opt[Int] = UNSET
    count: Opt[Int] = UNSET
    output_dir: Opt[str] = UNSET


class PageImage(CamelModel):
    """One PDF page extracted as an image."""

    base64: Opt[str] = UNSET
    media_type: Opt[str] = UNSET
    error: Opt[str] = UNSET


class ReadPartsResult(ReadResult, tag="parts"):
    """PDF pages that ``Read`` extracted as images."""

    file: Opt[PartsFile] = UNSET
    first_page: Opt[Int] = UNSET
    pages: Opt[list[PageImage]] = UNSET


class UnchangedFile(CamelModel):
    """The file a ``file_unchanged`` read names."""

    file_path: Opt[str] = UNSET


class ReadUnchangedResult(ReadResult, tag="file_unchanged"):
    """``Read`` of a file already read and not changed since: no content is returned."""

    file: Opt[UnchangedFile] = UNSET


AnyReadResult: TypeAlias = Union[  # noqa: UP007
    ReadTextResult,
    ReadImageResult,
    ReadNotebookResult,
    ReadPdfResult,
    ReadPartsResult,
    ReadUnchangedResult,
]


# Write, Edit, MultiEdit ------------------------------------------------------------------------


class WriteInput(Model):
    """Input of ``Write``: a whole file's new content."""

    file_path: str
    content: Opt[str] = UNSET


class WriteResult(CamelModel):
    """Result of ``Write``; ``type`` is ``create`` or ``update``."""

    type: Opt[str] = UNSET
    file_path: Opt[str] = UNSET
    content: Opt[str] = UNSET
    structured_patch: Opt[list[Hunk]] = UNSET
    original_file: Opt[str] = UNSET
    git_diff: Opt[GitDiff] = UNSET
    user_modified: Opt[bool] = UNSET
    staged: Opt[bool] = UNSET


class EditInput(Model):
    """Input of ``Edit``: replace ``old_string`` by ``new_string`` in a file."""

    file_path: str
    old_string: Opt[str] = UNSET
    new_string: Opt[str] = UNSET
    replace_all: Opt[bool] = UNSET


class EditResult(CamelModel):
    """Result of ``Edit``: the replacement and the diff it made."""

    file_path: Opt[str] = UNSET
    old_string: Opt[str] = UNSET
    new_string: Opt[str] = UNSET
    original_file: Opt[str] = UNSET
    structured_patch: Opt[list[Hunk]] = UNSET
    user_modified: Opt[bool] = UNSET
    replace_all: Opt[bool] = UNSET
    git_diff: Opt[GitDiff] = UNSET
    staged: Opt[bool] = UNSET


class EditOperation(Model):
    """One replacement of a ``MultiEdit``."""

    old_string: Opt[str] = UNSET
    new_string: Opt[str] = UNSET
    replace_all: Opt[bool] = UNSET


class MultiEditInput(Model):
    """Input of the removed ``MultiEdit``: several replacements in one file, in order."""

    file_path: str
    edits: Opt[list[EditOperation]] = UNSET


class MultiEditResult(CamelModel):
    """Result of the removed ``MultiEdit``."""

    file_path: Opt[str] = UNSET
    edits: Opt[list[EditOperation]] = UNSET
    original_file_contents: Opt[str] = UNSET
    structured_patch: Opt[list[Hunk]] = UNSET
    user_modified: Opt[bool] = UNSET


class LsInput(Model):
    """Input of the removed ``LS``; its result is a plain-text tree."""

    path: Opt[str] = UNSET
    ignore: Opt[list[str]] = UNSET


# NotebookEdit ----------------------------------------------------------------------------------


class NotebookEditInput(Model):
    """Input of ``NotebookEdit``; old transcripts address the cell by ``cell_number``."""

    notebook_path: str
    new_source: Opt[str] = UNSET
    cell_id: Opt[str] = UNSET
    cell_type: Opt[str] = UNSET
    edit_mode: Opt[str] = UNSET
    cell_number: Opt[Int] = UNSET


class NotebookEditResult(Model):
    """Result of ``NotebookEdit``."""

    new_source: Opt[str] = UNSET
    old_source: Opt[str] = UNSET
    cell_id: Opt[str] = UNSET
    cell_type: Opt[str] = UNSET
    language: Opt[str] = UNSET
    edit_mode: Opt[str] = UNSET
    error: Opt[str] = UNSET
    notebook_path: Opt[str] = UNSET
    original_file: Opt[str] = UNSET
    updated_file: Opt[str] = UNSET
    cell_number: Opt[Int] = UNSET


SPECS: tuple[ToolSpec, ...] = (
    ToolSpec(
        name="Read",
        aliases=(),
        input_type=ReadInput,
        result_type=AnyReadResult,
        description="Read a file: text, image, PDF or notebook",
        family="file",
    ),
    ToolSpec(
        name="Write",
        aliases=(),
        input_type=WriteInput,
        result_type=WriteResult,
        description="Create or overwrite a file",
        family="file",
    ),
    ToolSpec(
        name="Edit",
        aliases=(),
        input_type=EditInput,
        result_type=EditResult,
        description="Replace an exact string in a file",
        family="file",
    ),
    ToolSpec(
        name="MultiEdit",
        aliases=(),
        input_type=MultiEditInput,
        result_type=MultiEditResult,
        description="Make several string replacements in one file (use repeated Edit now)",
        family="file",
        removed=True,
    ),
    ToolSpec(
        name="LS",
        aliases=(),
        input_type=LsInput,
        result_type=None,
        description="List a directory as a tree",
        family="file",
        removed=True,
    ),
    ToolSpec(
        name="NotebookEdit",
        aliases=(),
        input_type=NotebookEditInput,
        result_type=NotebookEditResult,
        description="Replace, insert or delete a cell of a Jupyter notebook",
        family="notebook",
    ),
)
