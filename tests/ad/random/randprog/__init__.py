"""Random C programs for differential testing of the AD engine (see generate.py for the modes)."""
