"""Load harness: the production stack over real websockets (``python -m tools.load.run``)."""
