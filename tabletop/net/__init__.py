"""Network play: one engine on the host (or a dedicated server) referees every
player; each client is sent only its own view. Never imports Qt.

- ``protocol.py``: the messages (JSON, versioned), checked field by field;
- ``rooms.py``: a room (a table, its code, its seats) turning a seat's intentions
  into engine calls and building each seat's view;
- ``server.py``: the WebSocket server (``tabletop serve``), many rooms, autosaved;
- ``client.py``: a small client the tests and the GUI's worker thread use.

docs/protocol.md describes the protocol for anyone writing a client."""
