"""Basic model. Predicts tags for every token"""
import torch
import torch.nn.functional as F
from allennlp.models.model import Model
from allennlp.modules import TimeDistributed
from allennlp.nn.util import get_text_field_mask
from torch.nn.modules.linear import Linear


@Model.register("seq2labels")
class Seq2Labels(Model):
    def __init__(self, vocab, text_field_embedder, predictor_dropout=0.0, labels_namespace="labels",
                 detect_namespace="d_tags", confidence=0.0):
        super().__init__(vocab)
        self.text_field_embedder = text_field_embedder
        self.num_labels_classes = self.vocab.get_vocab_size(labels_namespace)
        self.num_detect_classes = self.vocab.get_vocab_size(detect_namespace)
        self.confidence = confidence
        self.incorr_index = self.vocab.get_token_index("INCORRECT", namespace=detect_namespace)
        self.predictor_dropout = TimeDistributed(torch.nn.Dropout(predictor_dropout))
        hidden = text_field_embedder.get_output_dim()
        self.tag_labels_projection_layer = TimeDistributed(Linear(hidden, self.num_labels_classes))
        self.tag_detect_projection_layer = TimeDistributed(Linear(hidden, self.num_detect_classes))

    def forward(self, tokens, labels=None, d_tags=None, metadata=None):
        encoded_text = self.text_field_embedder(tokens)
        batch_size, sequence_length, _ = encoded_text.size()
        mask = get_text_field_mask(tokens)
        logits_labels = self.tag_labels_projection_layer(self.predictor_dropout(encoded_text))
        logits_d = self.tag_detect_projection_layer(encoded_text)

        class_probabilities_labels = F.softmax(logits_labels, dim=-1).view([batch_size, sequence_length, self.num_labels_classes])
        class_probabilities_d = F.softmax(logits_d, dim=-1).view([batch_size, sequence_length, self.num_detect_classes])
        error_probs = class_probabilities_d[:, :, self.incorr_index] * mask
        incorr_prob = torch.max(error_probs, dim=-1)[0]

        if self.confidence > 0:
            probability_change = [self.confidence] + [0] * (self.num_labels_classes - 1)
            class_probabilities_labels += torch.FloatTensor(probability_change).repeat(
                (batch_size, sequence_length, 1)).to(class_probabilities_labels.device)

        return {"logits_labels": logits_labels, "logits_d_tags": logits_d,
                "class_probabilities_labels": class_probabilities_labels,
                "class_probabilities_d_tags": class_probabilities_d, "max_error_probability": incorr_prob}
