"""The run stage: hold the transcript's conversation with a built server, and verify one example end to end."""
