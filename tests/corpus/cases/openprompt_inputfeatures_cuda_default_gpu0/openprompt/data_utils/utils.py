from typing import List, Optional, Union

import torch


class InputFeatures(dict):
    """The model input of one batch: a dict whose tensor entries move together."""

    tensorable_keys = ["input_ids", "attention_mask", "label", "loss_ids"]

    def __init__(self, input_ids: Optional[Union[List, torch.Tensor]] = None,
                 attention_mask: Optional[Union[List[int], torch.Tensor]] = None,
                 label: Optional[Union[int, torch.Tensor]] = None,
                 loss_ids: Optional[Union[List, torch.Tensor]] = None):
        super().__init__(input_ids=input_ids, attention_mask=attention_mask, label=label, loss_ids=loss_ids)

    def to(self, device: str = "cuda:0"):
        r"""move the tensor keys to runtime device, such as gpu:0
        """
        for key in self.tensorable_keys:
            value = self[key]
            if value is not None:
                self[key] = value.to(device)
        return self

    def cuda(self, device: str = "cuda:0"):
        r"""mimic the tensor behavior
        """
        return self.to()
