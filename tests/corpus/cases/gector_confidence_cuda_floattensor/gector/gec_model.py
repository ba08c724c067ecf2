"""Wrapper of AllenNLP model. Fixes errors based on model predictions"""
import torch
from allennlp.data import Vocabulary
from allennlp.nn import util

from gector.seq2labels_model import Seq2Labels


class GecBERTModel(object):
    def __init__(self, vocab_path=None, model_paths=None, text_field_embedder=None, confidence=0):
        self.device = torch.device("cuda:0" if torch.cuda.is_available() else "cpu")
        self.vocab = Vocabulary.from_files(vocab_path)
        self.confidence = confidence
        self.models = []
        for model_path in model_paths:
            model = Seq2Labels(vocab=self.vocab, text_field_embedder=text_field_embedder,
                               confidence=self.confidence).to(self.device)
            if torch.cuda.is_available():
                model.load_state_dict(torch.load(model_path))
            else:
                model.load_state_dict(torch.load(model_path, map_location=torch.device("cpu")))
            model.eval()
            self.models.append(model)

    def predict(self, batches):
        predictions = []
        for batch, model in zip(batches, self.models):
            batch = util.move_to_device(batch.as_tensor_dict(), 0 if torch.cuda.is_available() else -1)
            with torch.no_grad():
                prediction = model.forward(**batch)
            predictions.append(prediction)
        return predictions
