"""termsolitaire: Stjernen, Penguin, Spider and Napoleon in the terminal."""

__version__ = "0.1.0"
