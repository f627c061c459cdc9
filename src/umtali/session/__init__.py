"""What the sessions of every game share: seats, the answers a session gives, and a game
kept in a file."""
