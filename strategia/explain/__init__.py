"""Explanations as values: the trace tree recorded while the engine computes (`trace`), and
its renderers as text, HTML and JSON (`render`).

    with explain("Rating of 17 с.д.", rule="9.6") as ex:
        ...                       # rule lookups land here by themselves
    step = ex.freeze()            # a Step: label, value, unit, rule, note, children
    print("\\n".join(explanation_text(step, "ru")))
"""

from strategia.explain.render import explanation_html, explanation_json, explanation_text, fmt
from strategia.explain.trace import Explained, Step, Trace, Value, explain, quiet, record, tracing

__all__ = [
    "Explained",
    "Step",
    "Trace",
    "Value",
    "explain",
    "explanation_html",
    "explanation_json",
    "explanation_text",
    "fmt",
    "quiet",
    "record",
    "tracing",
]
