"""Perplexity of a causal language model over a list of texts."""
from math import exp

import torch
import transformers

PAD_TOKEN_LABEL_ID = torch.nn.CrossEntropyLoss().ignore_index


class LM:
    def __init__(self, model: str = "gpt2", num_gpus: int = None):
        self.tokenizer = transformers.AutoTokenizer.from_pretrained(model)
        self.model = transformers.AutoModelForCausalLM.from_pretrained(model)
        if self.tokenizer.pad_token is None:
            self.tokenizer.pad_token = self.tokenizer.eos_token
        self.loss_fct = torch.nn.CrossEntropyLoss(reduction="none")
        self.device = self.model.device
        num_gpus = torch.cuda.device_count() if num_gpus is None else num_gpus
        if num_gpus == 1:
            self.model.to("cuda")
            self.device = self.model.device
        self.model.eval()

    def get_perplexity(self, input_texts, batch_size: int = 8):
        loss_list = []
        with torch.no_grad():
            for s in range(0, len(input_texts), batch_size):
                model_inputs = self.tokenizer(input_texts[s:s + batch_size], truncation=True, padding=True,
                                              return_tensors="pt")
                output = self.model(**{k: v.to(self.device) for k, v in model_inputs.items()})
                logit = output["logits"]

                label = model_inputs["input_ids"]
                label[label == self.tokenizer.pad_token_id] = PAD_TOKEN_LABEL_ID
                shift_logits = logit[..., :-1, :].contiguous()
                shift_label = label[:, 1:].contiguous()

                valid_length = (shift_label != PAD_TOKEN_LABEL_ID).sum(dim=-1)
                loss = self.loss_fct(shift_logits.view(-1, shift_logits.size(-1)), shift_label.view(-1))
                loss = loss.view(len(output["logits"]), -1)
                loss = torch.sum(loss, -1) / valid_length
                loss_list += loss.cpu().tolist()
        return [exp(i) for i in loss_list]


if __name__ == "__main__":
    scorer = LM("facebook/opt-125m", num_gpus=1)
    print(scorer.get_perplexity(["I dropped my laptop. I am happy.", "I dropped my laptop. I am sad."]))
