"""mjscore rules engine: validate, arrange, score and settle mahjong hands (no I/O, no images)."""
