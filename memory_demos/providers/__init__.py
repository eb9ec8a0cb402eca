"""Chat models, the tokenizer and the embedding model the strategies run on."""
