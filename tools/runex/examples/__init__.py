"""The model: an example folder (example.toml, transcript, answer key, implementations) as typed values, discovered
under examples/, and the Outcome a run of it comes to. Every stage above reads these; they import only the ground."""
