"""The Qt user interface: it asks the engine and shows its answers."""
