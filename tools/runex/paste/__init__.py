"""The page stage: markers in docs/ pages, the blocks pasted between them, the conversation view, and which
examples get "Run it here"."""
