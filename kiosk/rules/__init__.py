"""Rule profiles and blind structures as data (TOML and CSV), with their loaders."""
