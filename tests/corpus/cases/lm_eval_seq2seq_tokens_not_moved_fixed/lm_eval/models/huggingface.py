import torch
import torch.nn.functional as F

from lm_eval.base import BaseLM
from lm_eval import utils
from lm_eval.models.tiny_t5 import CharTokenizer, TinySeq2SeqLM


class HuggingFaceAutoLM(BaseLM):

    AUTO_MODEL_CLASS = None

    def __init__(
        self,
        pretrained: str,
        tokenizer=None,
        subfolder: str = None,
        revision: str = "main",
        device: str = "cuda",
        batch_size: int = 1,
        max_gen_toks: int = 256,
        parallelize: bool = False,
    ):
        super().__init__()

        assert isinstance(device, str)
        assert isinstance(pretrained, str)
        assert isinstance(batch_size, int)

        self.tokenizer = self.create_auto_tokenizer(pretrained, revision, subfolder, tokenizer)
        self.model = self.create_auto_model(pretrained, revision, subfolder)
        self.model.eval()
        torch.set_grad_enabled(False)  # Turn off gradients; we're only running inference.

        self._max_gen_toks = max_gen_toks
        self._batch_size = batch_size  # todo: adaptive batch size

        # TODO: Fix multi-gpu support.
        self._device = torch.device(device)
        if parallelize:
            self.model.parallelize()
            self._device = torch.device("cuda:0")
        else:
            self.model.to(self._device)

    def create_auto_model(self, pretrained, revision, subfolder):
        """Returns a pre-trained pytorch model from a pre-trained model configuration."""
        return self.AUTO_MODEL_CLASS.from_pretrained(
            pretrained,
            revision=revision + ("/" + subfolder if subfolder is not None else ""),
        )

    def create_auto_tokenizer(self, pretrained, revision, subfolder, tokenizer=None):
        """Returns a pre-trained tokenizer from a pre-trained tokenizer configuration."""
        tokenizer = CharTokenizer.from_pretrained(
            pretrained if tokenizer is None else tokenizer,
            revision=revision,
            subfolder=subfolder,
        )
        return tokenizer

    @property
    def eot_token(self) -> str:
        return self.tokenizer.eos_token

    @property
    def eot_token_id(self) -> int:
        return self.tokenizer.eos_token_id

    @property
    def max_length(self) -> int:
        return self.tokenizer.model_max_length

    @property
    def batch_size(self) -> int:
        # TODO: Fix multi-gpu
        return self._batch_size  # * gpus

    @property
    def device(self):
        # TODO: Fix multi-gpu
        return self._device

    def tok_encode_batch(self, strings):
        return self.tokenizer(strings, padding=True, add_special_tokens=False, return_tensors="pt")


class AutoSeq2SeqLM(HuggingFaceAutoLM):
    """Seq2Seq language modeling."""

    AUTO_MODEL_CLASS = TinySeq2SeqLM

    @property
    def max_length(self) -> int:
        return 2048

    def loglikelihood(self, requests):
        new_reqs = []
        for chunk in utils.chunks(requests, self.batch_size):
            context, continuation = zip(*chunk)

            # Fill empty contexts with the EOT token.
            context = [f"{self.eot_token}" if len(input_) == 0 else input_ for input_ in context]
            context_enc = self.tok_encode_batch(context)
            for key in context_enc:
                context_enc[key] = context_enc[key][:, -(self.max_length - 1):]

            continuation_enc = self.tok_encode_batch(list(continuation))
            for key in continuation_enc:
                continuation_enc[key] = continuation_enc[key][:, -(self.max_length - 1):]

            new_reqs.append(((context, continuation), context_enc, continuation_enc))
        return self._loglikelihood_tokens(new_reqs)

    def _loglikelihood_tokens(self, requests, disable_tqdm=False):
        res = []
        for chunk in requests:
            cache_keys, inputs_tok, targets_tok = chunk
            inputs_tok = inputs_tok.to(self.device)
            targets_tok = targets_tok.to(self.device)
            outputs = self._model_call(inputs_tok, targets_tok)
            log_softmaxes = F.log_softmax(outputs.logits, dim=-1)

            output_iterator = zip(
                zip(cache_keys[0], cache_keys[1]),
                log_softmaxes,
                targets_tok["input_ids"],
                targets_tok["attention_mask"],
            )
            for cache_key, log_softmax, target_tok, target_mask in output_iterator:
                length = target_mask.sum()
                log_softmax = log_softmax[:length]
                target_tok = target_tok[:length]
                greedy_tokens = log_softmax.argmax(dim=-1)
                max_equal = (greedy_tokens == target_tok).all()
                target_logits = torch.gather(log_softmax, 1, target_tok.unsqueeze(-1)).squeeze(-1)
                answer = (float(target_logits.sum()), bool(max_equal))

                if cache_key is not None:
                    self.cache_hook.add_partial("loglikelihood", cache_key, answer)

                res.append(answer)

        return res

    def _model_call(self, inputs_tok, targets_tok):
        """
        inps: a torch tensor of shape [batch, sequence]
        the size of sequence may vary from call to call
        returns: a torch tensor of shape [batch, sequence, vocab] with the
        logits returned from the model
        """
        return self.model(**inputs_tok, labels=targets_tok["input_ids"])
