"""The rules engine: pure functions of (state, order, rules) returning a new state and a result."""
