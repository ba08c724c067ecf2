import torch
from torch import Tensor
from torch.nn import Module


class InputTransform:
    """Mixin: apply `transform` in eval mode when the flags say so."""

    def forward(self, X: Tensor) -> Tensor:
        if self.training and not self.transform_on_train:
            return X
        if not self.training and not self.transform_on_eval:
            return X
        return self.transform(X)


class AppendFeatures(InputTransform, Module):
    """Append `feature_set` to each input (for risk measures over environmental features)."""

    def __init__(self, feature_set: Tensor, transform_on_train: bool = False,
                 transform_on_eval: bool = True) -> None:
        super().__init__()
        if feature_set.dim() != 2:
            raise ValueError("`feature_set` must be an `n_f x d_f`-dim tensor!")
        self.feature_set = feature_set
        self.transform_on_train = transform_on_train
        self.transform_on_eval = transform_on_eval

    def transform(self, X: Tensor) -> Tensor:
        expanded_X = X.unsqueeze(dim=-2).expand(*X.shape[:-1], self.feature_set.shape[0], -1)
        expanded_features = self.feature_set.expand(*expanded_X.shape[:-1], -1)
        appended_X = torch.cat([expanded_X, expanded_features], dim=-1)
        return appended_X.view(*X.shape[:-2], -1, appended_X.shape[-1])


class SurrogateModel(Module):
    """A model that owns its input transform as a sub-module."""

    def __init__(self, d: int, input_transform: Module) -> None:
        super().__init__()
        self.input_transform = input_transform
        self.weights = torch.nn.Parameter(torch.randn(d))

    def forward(self, X: Tensor) -> Tensor:
        X = self.input_transform(X)
        return X @ self.weights


device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
feature_set = torch.rand(8, 1)
model = SurrogateModel(d=3, input_transform=AppendFeatures(feature_set))
model.to(device)
model.eval()

X = torch.rand(16, 4, 2, device=device)
with torch.no_grad():
    samples = model(X)
print(samples.shape)
