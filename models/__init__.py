"""mjscore models: the tile classifier (ONNX runtime wrapper, training and export)."""
