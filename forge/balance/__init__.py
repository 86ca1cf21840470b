"""The balance lab: what simulated games say about the game, each figure with its uncertainty."""
