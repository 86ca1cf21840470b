"""forge: the production pipeline and rules validator of Rift Commanders."""

__version__ = "0.1.0"
