"""One module per CLI command; ``forge.cli`` registers them."""
