import torch
from torch.utils.data import DataLoader

from drugood.datasets import collate


def scatter(data, device):
    """What MMDataParallel does with a batch before calling the model: tensors (and
    dicts/lists of them) go to device_ids[0]; any other object (a DGLGraph) is passed as is."""
    if isinstance(data, torch.Tensor):
        return data.to(device)
    if isinstance(data, dict):
        return {k: scatter(v, device) for k, v in data.items()}
    if isinstance(data, (list, tuple)):
        return type(data)(scatter(v, device) for v in data)
    return data


def train_model(model, dataset, cfg, device='cuda'):
    data_loader = DataLoader(dataset, batch_size=cfg.samples_per_gpu, shuffle=True, collate_fn=collate)

    # put model on gpus (MMDataParallel(model.cuda(cfg.gpu_ids[0]), device_ids=cfg.gpu_ids))
    if device == 'cuda':
        model = model.cuda(cfg.gpu_ids[0])
    elif device == 'cpu':
        model = model.cpu()
    else:
        raise ValueError(F'unsupported device name {device}.')

    optimizer = torch.optim.SGD(model.parameters(), lr=cfg.lr, momentum=0.9)
    for epoch in range(cfg.total_epochs):
        model.train()
        for data_batch in data_loader:
            if device == 'cuda':
                data_batch = scatter(data_batch, torch.device('cuda', cfg.gpu_ids[0]))
            outputs = model.train_step(data_batch, optimizer)
            optimizer.zero_grad()
            outputs['loss'].backward()
            optimizer.step()
    return model
