import torch

import flair
from flair.data import Dictionary
from flair.models.language_model import LanguageModel

# run the language model on the second GPU
flair.device = torch.device("cuda:1")

dictionary = Dictionary()
for char in "abcdefghijklmnopqrstuvwxyz .\n":
    dictionary.add_item(char)

language_model = LanguageModel(dictionary, is_forward_lm=True, hidden_size=32, nlayers=1, embedding_size=16)
language_model.eval()

text, perplexity = language_model.generate_text("the ", number_of_characters=20)
print(text, perplexity)
