"""The console's widgets: they declare state and callbacks, call the engine and render its results.

Nothing here computes a rule: every number shown comes from `strategia`'s engine functions.
"""
