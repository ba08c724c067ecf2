import torch
from torch import nn


class ModelConfig:
    """A plain configuration object (not a Module)."""

    def __init__(self, vocab_size=30522, hidden_size=768, hidden_dropout_prob=0.1):
        self.vocab_size = vocab_size
        self.hidden_size = hidden_size
        self.hidden_dropout_prob = hidden_dropout_prob


class ClassificationHead(nn.Module):
    def __init__(self, head_name, num_labels, layers, model_config):
        super().__init__()
        self.name = head_name
        self.config = {"head_type": "classification", "num_labels": num_labels, "layers": layers}
        pred_head = []
        for layer in range(layers):
            pred_head.append(nn.Dropout(model_config.hidden_dropout_prob))
            if layer < layers - 1:
                pred_head.append(nn.Linear(model_config.hidden_size, model_config.hidden_size))
                pred_head.append(nn.Tanh())
            else:
                pred_head.append(nn.Linear(model_config.hidden_size, num_labels))
        self.head = nn.Sequential(*pred_head)

    def forward(self, outputs, attention_mask, labels=None):
        logits = self.head(outputs[:, 0])
        if labels is not None:
            return nn.functional.cross_entropy(logits, labels), logits
        return (logits,)


class BertModelWithHeads(nn.Module):
    def __init__(self, config: ModelConfig):
        super().__init__()
        self.config = config
        self.embeddings = nn.Embedding(config.vocab_size, config.hidden_size)
        self.encoder = nn.TransformerEncoder(nn.TransformerEncoderLayer(config.hidden_size, 12, batch_first=True), 2)
        if not hasattr(self.config, "prediction_heads"):
            self.config.prediction_heads = {}
        self.active_head = None

    def add_classification_head(self, head_name, num_labels=2, layers=2):
        head = ClassificationHead(head_name, num_labels, layers, self.config)
        self.add_prediction_head(head)

    def add_prediction_head(self, head, overwrite_ok=False):
        if head.name not in self.config.prediction_heads or overwrite_ok:
            self.config.prediction_heads[head.name] = head
            self.active_head = head.name
        else:
            raise ValueError(f"Model already contains a head with name '{head.name}'.")

    def forward_head(self, outputs, head_name=None, attention_mask=None, **kwargs):
        head_name = head_name or self.active_head
        if head_name not in self.config.prediction_heads:
            raise ValueError("Unknown head_name '{}'".format(head_name))
        if not self.training:
            self.config.prediction_heads[head_name].eval()
        else:
            self.config.prediction_heads[head_name].train()
        head = self.config.prediction_heads[head_name]
        return head(outputs, attention_mask, **kwargs)

    def forward(self, input_ids, attention_mask=None, labels=None):
        outputs = self.encoder(self.embeddings(input_ids))
        return self.forward_head(outputs, attention_mask=attention_mask, labels=labels)


if __name__ == "__main__":
    model = BertModelWithHeads(ModelConfig())
    model.add_classification_head("sst-2", num_labels=2)
    model.to("cuda")
    input_ids = torch.randint(0, 30522, (4, 16), device="cuda")
    print(model(input_ids)[0].shape)
