import argparse

import torch

from sub.data_loader import get_batch
from sub.model import GPT, GPTConfig


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--device", default="cuda:1")
    parser.add_argument("--batch-size", type=int, default=12)
    parser.add_argument("--max-iters", type=int, default=100)
    args = parser.parse_args()

    DEVICE = args.device
    BATCH_SIZE = args.batch_size

    gptconf = GPTConfig()
    train_data = torch.randint(0, gptconf.vocab_size, (10_000,))
    model = GPT(gptconf)
    model = model.to(DEVICE)
    optimizer = torch.optim.AdamW(model.parameters(), lr=6e-4)

    X, Y = get_batch(train_data, BATCH_SIZE, DEVICE, gptconf)
    for it in range(args.max_iters):
        logits, loss = model(X, Y)
        X, Y = get_batch(train_data, BATCH_SIZE, DEVICE, gptconf)
        loss.backward()
        optimizer.step()
        optimizer.zero_grad(set_to_none=True)
    return 0


if __name__ == "__main__":
    main()
