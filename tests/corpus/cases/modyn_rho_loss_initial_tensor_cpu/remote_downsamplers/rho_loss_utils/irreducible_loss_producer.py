from typing import Union

import torch


class IrreducibleLossModel(torch.nn.Module):
    """Stand-in for the il model trained by the RHO pipeline (fetched from model storage in modyn)."""

    def __init__(self, in_features: int, num_classes: int) -> None:
        super().__init__()
        self.fc = torch.nn.Linear(in_features, num_classes)

    def forward(self, data: torch.Tensor, sample_ids: list[int]) -> torch.Tensor:
        return self.fc(data)


class IrreducibleLossProducer:
    def __init__(self, per_sample_loss: torch.nn.modules.loss._Loss, modyn_config: dict, device: str) -> None:
        # il model is only moved to the computing device when we use it to compute il loss
        self.model = IrreducibleLossModel(modyn_config["in_features"], modyn_config["num_classes"])
        self.model.eval()
        self.loss_cache: dict[int, torch.Tensor] = {}
        self.device = device
        self.per_sample_loss_fct = per_sample_loss

    def get_irreducible_loss(
        self, sample_ids: list[int], forward_input: Union[dict[str, torch.Tensor], torch.Tensor], target: torch.Tensor
    ) -> torch.Tensor:
        fully_in_cache = all(sample_id in self.loss_cache for sample_id in sample_ids)
        if fully_in_cache:
            # torch.stack creates a new tensor
            return torch.stack([self.loss_cache[sample_id] for sample_id in sample_ids]).to(self.device)

        with torch.inference_mode():
            # move model to the computing device
            self.model.to(self.device)
            forward_output = self.model(forward_input, sample_ids)
            irreducible_loss = self.per_sample_loss_fct(forward_output, target).detach()
            cached_loss = irreducible_loss.cpu()
            self.model.to("cpu")
        for sample_id, loss in zip(sample_ids, cached_loss):
            if sample_id not in self.loss_cache:
                self.loss_cache[sample_id] = loss

        return irreducible_loss
