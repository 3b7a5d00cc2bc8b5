"""The director: owns the tournament, logs every decision, publishes plans."""
