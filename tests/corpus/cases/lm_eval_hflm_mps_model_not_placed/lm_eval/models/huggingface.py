import logging
from typing import List, Optional, Union

import torch
import torch.nn as nn
import torch.nn.functional as F

eval_logger = logging.getLogger("lm-eval")


class TinyCausalLM(nn.Module):
    """Stand-in for `transformers.AutoModelForCausalLM.from_pretrained(pretrained)`."""

    def __init__(self, vocab_size: int = 256, hidden_size: int = 64):
        super().__init__()
        self.embed_tokens = nn.Embedding(vocab_size, hidden_size)
        self.block = nn.Sequential(nn.Linear(hidden_size, hidden_size), nn.GELU())
        self.lm_head = nn.Linear(hidden_size, vocab_size, bias=False)

    def tie_weights(self):
        self.lm_head.weight = self.embed_tokens.weight

    def forward(self, input_ids):
        return self.lm_head(self.block(self.embed_tokens(input_ids)))


class HFLM:
    """An abstracted Huggingface model class."""

    def __init__(
        self,
        pretrained: Union[str, nn.Module] = "gpt2",
        device: Optional[str] = "cuda",
        batch_size: Optional[int] = 1,
        parallelize: Optional[bool] = False,
        autogptq: Optional[bool] = False,
    ) -> None:
        gpus = torch.cuda.device_count()

        if not parallelize:
            # use user-passed device
            device_list = set(
                ["cuda", "cpu"]
                + [f"cuda:{i}" for i in range(torch.cuda.device_count())]
                + ["mps", "mps:0"]
            )
            if device and device in device_list:
                self._device = torch.device(device)
                eval_logger.info(f"Using device '{device}'")
            else:
                eval_logger.info("Device not specified")
                eval_logger.info(f"Cuda Available? {torch.cuda.is_available()}")
                self._device = torch.device("cuda") if torch.cuda.is_available() else torch.device("cpu")

        self._create_model(pretrained=pretrained)

        # access self._model through self.model property outside this method
        self.model.eval()
        self.model.tie_weights()

        if isinstance(pretrained, str) and gpus >= 1:
            if not (parallelize or autogptq):
                # place model onto device requested manually,
                # if not using HF Accelerate or device_map
                try:
                    self.model.to(self.device)
                except ValueError:
                    eval_logger.debug("Failed to place model onto specified device.")

        self.batch_size_per_gpu = int(batch_size)

    def _create_model(self, pretrained: Union[str, nn.Module]) -> None:
        self._model = TinyCausalLM() if isinstance(pretrained, str) else pretrained

    @property
    def model(self):
        return self._model

    @property
    def device(self):
        return self._device

    def tok_encode(self, string: str) -> List[int]:
        return [min(ord(c), 255) for c in string]

    def _model_call(self, inps):
        with torch.no_grad():
            return self.model(inps)

    def loglikelihood_rolling(self, strings: List[str]) -> List[float]:
        results = []
        for string in strings:
            tokens = self.tok_encode(string)
            inps = torch.tensor([tokens[:-1]], dtype=torch.long, device=self.device)
            targets = torch.tensor([tokens[1:]], dtype=torch.long, device=self.device)
            logits = self._model_call(inps)
            logprobs = F.log_softmax(logits, dim=-1)
            results.append(logprobs.gather(-1, targets.unsqueeze(-1)).sum().item())
        return results
