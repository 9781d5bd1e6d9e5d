"""The pipeline's output: what happened to each example and page, and its text for a terminal or a log."""
