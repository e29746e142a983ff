"""The scenario builder (notebooks/scenario_builder.ipynb): its panel and its trial."""
