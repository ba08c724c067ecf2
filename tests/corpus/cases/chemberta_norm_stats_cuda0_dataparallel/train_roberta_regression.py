import torch
from torch.utils.data import DataLoader, TensorDataset
from transformers import RobertaConfig

from chemberta.utils.roberta_regression import RobertaForRegression


def main():
    is_gpu = torch.cuda.is_available()

    # a multitask regression data set: token ids and 3 normalized targets per molecule
    input_ids = torch.randint(5, 600, (256, 64))
    targets = torch.randn(256, 3)
    dataset = TensorDataset(input_ids, targets)

    config = RobertaConfig(
        vocab_size=600,
        max_position_embeddings=66,
        num_attention_heads=4,
        num_hidden_layers=2,
        hidden_size=128,
        type_vocab_size=1,
        num_labels=3,
        norm_mean=targets.mean(0).tolist(),
        norm_std=targets.std(0).tolist(),
        is_gpu=is_gpu,
    )

    model = RobertaForRegression(config=config)
    model = model.cuda()

    # What transformers' Trainer does when it sees more than one GPU (n_gpu > 1):
    # wrap the model in DataParallel, which runs a replica per GPU on a slice of the batch.
    if torch.cuda.device_count() > 1:
        model = torch.nn.DataParallel(model)

    optimizer = torch.optim.AdamW(model.parameters(), lr=5e-5)
    for batch_ids, batch_targets in DataLoader(dataset, batch_size=16, shuffle=True):
        loss, _ = model(input_ids=batch_ids.cuda(), labels=batch_targets.cuda())
        loss.mean().backward()
        optimizer.step()
        optimizer.zero_grad()


if __name__ == "__main__":
    main()
