"""A card night: its own stream of deals, the schedule derived from them, standings, settling up."""
