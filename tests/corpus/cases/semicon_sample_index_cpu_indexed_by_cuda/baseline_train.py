import torch
import torch.optim as optim

from models.adsh_loss import ADSH_Loss
from data.data_loader import sample_dataloader
import models.baseline as baseline


def train(query_dataloader, train_dataloader, retrieval_dataloader, code_length, args):
    model = baseline.baseline(code_length=code_length, num_classes=args.num_classes, device=args.device)
    model.to(args.device)
    optimizer = optim.Adam(model.parameters(), lr=args.lr, weight_decay=args.wd)
    criterion = ADSH_Loss(code_length, args.gamma)

    num_retrieval = len(retrieval_dataloader.dataset)
    U = torch.zeros(args.num_samples, code_length).to(args.device)
    B = torch.randn(num_retrieval, code_length).to(args.device)
    retrieval_targets = retrieval_dataloader.dataset.get_onehot_targets().to(args.device)
    for it in range(args.max_iter):
        # a random subset of the retrieval set is the training set of this round
        train_dataloader, sample_index = sample_dataloader(retrieval_dataloader, args.num_samples, args.batch_size)

        # pairwise similarity (+1 / -1) between the sampled points and the retrieval set
        train_targets = train_dataloader.dataset.get_onehot_targets().to(args.device)
        S = (train_targets @ retrieval_targets.t() > 0).float()
        S = torch.where(S == 1, torch.full_like(S, 1), torch.full_like(S, -1))
        r = S.sum() / (1 - S).sum()
        S = S * (1 + r) - r

        for epoch in range(args.max_epoch):
            for batch, (data, targets, index) in enumerate(train_dataloader):
                data, targets, index = data.to(args.device), targets.to(args.device), index.to(args.device)
                optimizer.zero_grad()

                F = model(data, targets)
                U[index, :] = F.data
                cnn_loss, hash_loss, quan_loss = criterion(F, B, S[index, :], sample_index[index])

                cnn_loss.backward()
                optimizer.step()

        # codes of the sampled points, placed at their rows of the retrieval set
        expand_U = torch.zeros(B.shape).to(args.device)
        expand_U[sample_index, :] = U
        B = torch.sign(code_length * S.t() @ U + args.gamma * expand_U)

    return 0.0
