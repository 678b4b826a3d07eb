"""Four Card Poker: rules and pay tables, the round state machine, exact analysis."""
