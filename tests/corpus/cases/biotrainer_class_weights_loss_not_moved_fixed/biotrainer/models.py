import torch.nn as nn


class FNN(nn.Module):
    def __init__(self, n_classes: int, n_features: int, bottleneck_dim: int = 32, dropout_rate: float = 0.25):
        super(FNN, self).__init__()
        self.fnn = nn.Sequential(
            nn.Linear(n_features, bottleneck_dim),
            nn.ReLU(),
            nn.Dropout(dropout_rate),
            nn.Linear(bottleneck_dim, n_classes)
        )

    def forward(self, x):
        return self.fnn(x)


__MODELS = {
    'residue_to_class': {'FNN': FNN},
    'sequence_to_class': {'FNN': FNN},
}


def get_model(protocol: str, model_choice: str, n_classes: int, n_features: int):
    model = __MODELS.get(protocol).get(model_choice)

    if not model:
        raise NotImplementedError
    else:
        return model(n_classes=n_classes, n_features=n_features)
