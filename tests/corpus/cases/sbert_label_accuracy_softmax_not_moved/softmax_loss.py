import torch
from torch import nn

from sentence_transformer import SentenceTransformer


class SoftmaxLoss(nn.Module):
    def __init__(self, model: SentenceTransformer, sentence_embedding_dimension: int, num_labels: int):
        super().__init__()
        self.model = model
        self.classifier = nn.Linear(3 * sentence_embedding_dimension, num_labels)

    def forward(self, sentence_features, labels):
        reps = [self.model(sentence_feature)["sentence_embedding"] for sentence_feature in sentence_features]
        rep_a, rep_b = reps
        features = torch.cat([rep_a, rep_b, torch.abs(rep_a - rep_b)], 1)
        output = self.classifier(features)
        if labels is not None:
            return nn.CrossEntropyLoss()(output, labels.view(-1))
        return reps, output
