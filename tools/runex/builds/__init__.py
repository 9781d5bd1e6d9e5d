"""The build stage: an implementation becomes a command line (native.py) or a wasm32-wasip1 module (wasm.py),
compiled in the sandbox through the build cache."""
