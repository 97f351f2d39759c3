"""mjscore datasets: tile art, synthetic tile and table renders, and readers for labelled photos."""
