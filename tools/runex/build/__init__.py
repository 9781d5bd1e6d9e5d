"""The build stage: an implementation becomes a command line, compiled in the sandbox through the build cache."""
