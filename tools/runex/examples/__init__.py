"""The pipeline's input: an example folder (example.toml, transcript, answer key, implementations) as typed values,
discovered under examples/, and `new`'s scaffold for a fresh one."""
