"""The answer-key stage: what a verified run wrote, held against answer_key.jsonl (and stderr.txt for a stderr lane):
verified, drifted (under --check) or to be written."""
