from transformers import BertForMaskedLM

from fitbert.fitb import FitBert

# a custom fine-tuned model, loaded the way the README describes
bert = BertForMaskedLM.from_pretrained("path/to/pretrained")
fb = FitBert(model=bert)

masked_string = "Why Bert, you're looking ***mask*** today!"
options = ["buff", "handsome", "strong"]
print(fb.rank(masked_string, options=options))
