import torch

from att_model import AttModel


def train(opt, loader):
    model = AttModel(opt).cuda()
    optimizer = torch.optim.Adam(model.parameters(), lr=opt.learning_rate)
    for data in loader:
        tmp = [data["fc_feats"], data["att_feats"], data["labels"], data["att_masks"]]
        tmp = [_ if _ is None else _.cuda() for _ in tmp]
        fc_feats, att_feats, labels, att_masks = tmp
        logits = model(fc_feats, att_feats, att_masks)
        loss = torch.nn.functional.cross_entropy(logits, labels[:, 1])
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
