"""The few style rules Memory Lab adds to Streamlit's own, for every page (``app.py`` draws them once a run).

Static CSS and no data in it: the house style's rule against raw HTML is about untrusted text.
"""

from __future__ import annotations

import streamlit as st

# A code block's copy button sits in its top right corner, over the end of a line that fills the box
# (a migration program's wrapped docstring ran under it at 1440 px). The text keeps clear of it: the
# button is 24 px wide, 12 px from the box's edge; the box's own padding is 16 px.
CODE_CLEAR_OF_COPY_BUTTON = '[data-testid="stCode"] pre { padding-right: 2.75rem; }'


def apply_page_styles() -> None:
    """Add the rules to the page (a style-only ``st.html`` takes no room in the layout)."""
    st.html(f"<style>{CODE_CLEAR_OF_COPY_BUTTON}</style>")
