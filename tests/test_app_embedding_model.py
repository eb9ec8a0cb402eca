"""AppTest: a retrieval pane names its embedding model, and an empty one follows the language (issue 26)."""

from __future__ import annotations

from streamlit.testing.v1 import AppTest

from memory_demos.i18n import CATALOGUE
from memory_demos.providers.embedding_choice import OFFLINE_MODEL_LABELS
from memory_demos.providers.embeddings import EMBEDDING_MODEL_LABEL
from memory_demos.providers.multilingual_embeddings import MULTILINGUAL_MODEL_LABEL
from memory_demos.session import widget_key
from memory_demos.ui.text import code_span
from tests.test_app_pages import open_app, panes, send

EN = CATALOGUE["en"]
ZH = CATALOGUE["zh"]


def _captions(at: AppTest) -> list[str]:
    return [caption.value for caption in at.caption]


def _add_vector_pane(at: AppTest) -> None:
    at.selectbox(key=widget_key("add_strategy")).set_value("vector").run()
    at.button[[b.label for b in at.button].index(EN["compare.add_pane"])].click().run()
    assert not at.exception, at.exception


def test_a_vector_pane_names_its_model_and_an_empty_one_follows_the_language() -> None:
    at = open_app("pages/compare.py")
    _add_vector_pane(at)
    english_caption = EN["pane.embedding_model"].format(model=code_span(EMBEDDING_MODEL_LABEL))
    assert any(english_caption in caption for caption in _captions(at)), _captions(at)
    retrieval_panes = [pane for pane in panes(at) if "embeddings" in pane.strategy.params]
    assert len(retrieval_panes) >= 1  # the vector pane, and semantic_store if it is a default pane
    assert sum("Embeddings:" in caption for caption in _captions(at)) == len(retrieval_panes)

    at.sidebar.segmented_control[0].set_value("zh").run()
    assert not at.exception, at.exception
    vector = panes(at)[-1]
    assert vector.strategy.embedding_model() == MULTILINGUAL_MODEL_LABEL  # rebuilt: it had answered nothing
    (model_id,) = [i for i, label in OFFLINE_MODEL_LABELS.items() if label == MULTILINGUAL_MODEL_LABEL]
    chinese_label = ZH[f"embedding.offline_label.{model_id}"]  # the shipped model's label, in Chinese
    chinese_caption = ZH["pane.embedding_model"].format(model=code_span(chinese_label))
    assert any(chinese_caption in caption for caption in _captions(at)), _captions(at)

    send(at, "我的订单号是 B-5678。")
    assert vector.strategy.snapshot()["embedding_model"] == MULTILINGUAL_MODEL_LABEL
    at.sidebar.segmented_control[0].set_value("en").run()
    assert not at.exception, at.exception
    # With a stored exchange the pane keeps its model: MiniLM could not search e5's vectors.
    assert panes(at)[-1] is vector and len(vector.turns) == 1
    assert vector.strategy.embedding_model() == MULTILINGUAL_MODEL_LABEL
