import argparse
from types import SimpleNamespace

import torch

from ModelsRL import Policy


def main(train_batches):
    parser = argparse.ArgumentParser()
    # the reporter runs on the first GPU
    parser.add_argument("--gpu_id", default=0, type=int, help="id of gpu")
    args = parser.parse_args()

    if torch.cuda.is_available():
        device = torch.device("cuda", args.gpu_id)
    else:
        device = None

    config = SimpleNamespace(vocab_size=30522, hidden_size=128, max_position_embeddings=512, type_vocab_size=3,
                             num_attention_heads=2, num_hidden_layers=2)
    policy = Policy(config, device)
    if args.gpu_id:
        policy.to(device)
    optimizer = torch.optim.Adam(policy.parameters(), lr=5e-6)

    for ready_batch in train_batches:
        if args.gpu_id: ready_batch = tuple(t.to(device) for t in ready_batch)
        _logits = policy(ready_batch)
        logits = _logits.cpu().data.numpy() if args.gpu_id else _logits.data.numpy()
        loss = -_logits.log_softmax(-1)[:, 0].mean()
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
