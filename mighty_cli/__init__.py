"""mighty_cli: run Mighty (마이티) card tables and leagues."""

__version__ = "0.1.0"
