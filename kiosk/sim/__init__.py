"""Tournament simulator: virtual tables playing through the core."""
