"""A face: a Report's text for a terminal or a log."""
