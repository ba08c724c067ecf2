import torch


def get_batch(dataset, batch_size: int, device: str, model_conf):
    """
    Create batches (x - inputs and y - outputs) of contexts and targets.

    Args:
        dataset: the data set to be loaded to a tensor
        device: the device on which to move the objects (default "cpu")
        model_conf: the GPT configuration object
    """
    ix = torch.randint(len(dataset) - model_conf.block_size, (batch_size,))
    x = torch.stack([dataset[i : i + model_conf.block_size] for i in ix])
    y = torch.stack([dataset[i + 1 : i + model_conf.block_size + 1] for i in ix])

    if "cuda" in device:
        x, y = x.pin_memory().to("cuda", non_blocking=True), y.pin_memory().to(
            device, non_blocking=True
        )
    else:
        x, y = x.to(device), y.to(device)
    return x, y
