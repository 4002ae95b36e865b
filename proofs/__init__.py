"""Checks and proofs: the texts' worked examples against the model, and model self-checks."""
