"""Reusable Streamlit components of Memory Lab: they take plain data (turns, prompts, state) and render it.

Untrusted text (model output, memory contents, user input) is always rendered as text: ``st.text``,
``st.code``, ``st.dataframe`` or ``st.json``; never as markdown or HTML.
"""
