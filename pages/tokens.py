"""Tokens: see how a model's tokenizer cuts a prompt, and what it counts."""

from __future__ import annotations

import streamlit as st

from memory_demos.i18n import current_language, t
from memory_demos.providers.tokenizer import choose_encoding, get_encoding
from memory_demos.session import get_session, widget_key
from memory_demos.ui.frame import run_in_frame
from memory_demos.ui.prompt_view import role_label
from memory_demos.ui.text import code_span
from memory_demos.ui.token_view import TokenPiece, render_token_chips, render_token_grid

MAX_SHOWN_TOKENS = 2000
MODEL_NAMES = ["gpt-4o", "gpt-4o-mini", "gpt-4.1", "gpt-4", "gpt-3.5-turbo", "llama3.1:8b"]


def render() -> None:
    """The page: a text and a model in, the token count and every token out."""
    session = get_session()

    st.title(t("tokenizer.title"), anchor=False)
    st.caption(t("tokenizer.intro"))

    samples = {
        "tokenizer.sample.english": t("tokenizer.sample_text.english"),
        "tokenizer.sample.chinese": "我叫小明，住在上海。我喜欢吃饺子，也喜欢喝绿茶。",
        "tokenizer.sample.code": 'def greet(name: str) -> str:\n    return f"Hello, {name}!"\n',
    }
    # The last prompt any pane sent, as "role: text" lines.
    for pane in session.panes:
        latest = next((turn for turn in reversed(pane.turns) if turn.reply_call is not None), None)
        if latest is not None:
            samples["tokenizer.sample.last_prompt"] = "\n".join(
                f"{role_label(m.role)}: {m.content}" for m in latest.injected_prompt
            )
            break

    left, right = st.columns([3, 2], gap="large")
    with right:
        source = st.radio(
            t("tokenizer.source"),
            ["tokenizer.source.paste", *samples],
            format_func={key: t(key) for key in ["tokenizer.source.paste", *samples]}.__getitem__,
            key=widget_key("tokens_source"),
        )
        default_model = session.provider.model if session.provider.kind != "offline" else "gpt-4o"
        options = MODEL_NAMES if default_model in MODEL_NAMES else [default_model, *MODEL_NAMES]
        model = st.selectbox(
            t("tokenizer.model"),
            options,
            index=options.index(default_model),
            accept_new_options=True,
            key=widget_key("tokens_model"),
            help=t("tokenizer.model_help"),
        )
    with left:
        if source == "tokenizer.source.paste":
            text = st.text_area(
                t("tokenizer.text"),
                # A Chinese session starts from Chinese text, an English one from English.
                value=samples[
                    "tokenizer.sample.chinese" if current_language() == "zh" else "tokenizer.sample.english"
                ],
                height=200,
                key=widget_key("tokens_text"),
                max_chars=session.limits.max_message_chars * 4,
            )
        else:
            text = samples[source]
            st.caption(t("tokenizer.text"))
            st.code(text, language=None, wrap_lines=True)

    choice = choose_encoding(model or "gpt-4o")
    encoding = get_encoding(choice.encoding_name)
    token_ids = encoding.encode(text or "", disallowed_special=())
    pieces = [
        TokenPiece(
            position, token_id, encoding.decode_single_token_bytes(token_id).decode("utf-8", errors="replace")
        )
        for position, token_id in enumerate(token_ids[:MAX_SHOWN_TOKENS])
    ]

    with st.container(horizontal=True, gap="medium"):
        st.metric(t("tokenizer.count"), f"{len(token_ids):,}")
        st.metric(t("tokenizer.characters"), f"{len(text or ''):,}")
        st.metric(t("tokenizer.encoding"), choice.encoding_name)
    if choice.approximate:
        st.warning(t("tokenizer.approximate", model=code_span(choice.model_name)), icon=":material/warning:")
    else:
        st.caption(t("tokenizer.exact", model=code_span(choice.model_name), encoding=choice.encoding_name))
    if len(token_ids) > MAX_SHOWN_TOKENS:
        st.caption(t("tokenizer.truncated", shown=f"{MAX_SHOWN_TOKENS:,}", total=f"{len(token_ids):,}"))

    st.subheader(t("tokenizer.chips"), anchor=False)
    st.caption(t("tokenizer.chips_caption"))
    render_token_grid(pieces)
    with st.expander(t("tokenizer.table"), icon=":material/table:"):
        render_token_chips(pieces)


run_in_frame(render)
