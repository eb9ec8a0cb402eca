"""Memory Lab: placeholder entry point until the UI lands."""

import streamlit as st

st.title("Memory Lab")
st.write("The Compare page is on its way.")
