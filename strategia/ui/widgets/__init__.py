"""Widgets and conversions the screens share: the map (mapview; its layers, counters' marks,
relief, hover readout), the order form, the clock, and catching up with other writers."""
