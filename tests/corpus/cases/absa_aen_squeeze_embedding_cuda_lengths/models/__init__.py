from models.aen import AEN_GloVe
