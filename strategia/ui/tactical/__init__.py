"""The tactical table of seed 003 (notebooks/tactical.ipynb)."""
