import numpy as np

from torch.utils.data import Dataset


class ASSIST2009(Dataset):
    def __init__(self, seq_len, num_users=20, num_q=10):
        super().__init__()
        rng = np.random.default_rng(0)
        self.num_q = num_q
        self.q_seqs = [rng.integers(0, num_q, seq_len) for _ in range(num_users)]
        self.r_seqs = [rng.integers(0, 2, seq_len) for _ in range(num_users)]

    def __getitem__(self, index):
        return self.q_seqs[index], self.r_seqs[index]

    def __len__(self):
        return len(self.q_seqs)
