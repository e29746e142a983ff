"""The lessons' helpers (notebooks/01-07): figures, tables and workbenches that ask the engine
and render its answers (see `strategia.ui.lessons.common`)."""
