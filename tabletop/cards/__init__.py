"""Card data: the built-in set, importers and deck lists."""
