"""The theatre and its scenarios: the terrain as an xarray grid (`terrain`), drawing on it, the
scenario (`scenario`) and its text format (`scenario_io`), the builder for prototyping, random
theatres (`generate`) and the map as text (`ascii_map`).

    from strategia.theatre import load_scenario, ScenarioBuilder
    sc = load_scenario("maps/continental.toml")
"""

from strategia.theatre.builder import ScenarioBuilder
from strategia.theatre.scenario import Scenario
from strategia.theatre.scenario_io import load_scenario, save_scenario

__all__ = ["Scenario", "ScenarioBuilder", "load_scenario", "save_scenario"]
