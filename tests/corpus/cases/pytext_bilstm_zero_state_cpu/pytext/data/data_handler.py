import torch

from pytext.utils import cuda_utils


class DataHandler:
    """Yields (tokens, seq_lens, labels) batches, sorted by length and already
    on the training device."""

    def __init__(self, num_examples=256, vocab_size=1000, max_len=20, num_labels=5):
        self.examples = []
        for i in range(num_examples):
            length = 3 + i % (max_len - 3)
            self.examples.append((torch.randint(1, vocab_size, (length,)), i % num_labels))

    def get_train_iter(self, batch_size):
        device = "cuda:{}".format(torch.cuda.current_device()) if cuda_utils.CUDA_ENABLED else "cpu"
        for start in range(0, len(self.examples), batch_size):
            chunk = sorted(self.examples[start:start + batch_size], key=lambda e: -len(e[0]))
            lengths = [len(tokens) for tokens, _ in chunk]
            seq_lens = torch.tensor(lengths)
            tokens = torch.zeros(len(chunk), lengths[0], dtype=torch.long)
            for row, (toks, _) in enumerate(chunk):
                tokens[row, : len(toks)] = toks
            labels = torch.tensor([label for _, label in chunk])
            yield tokens.to(device), seq_lens.to(device), labels.to(device)
