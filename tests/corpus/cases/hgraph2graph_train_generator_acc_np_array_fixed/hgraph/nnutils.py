import torch


def get_accuracy_bin(scores, labels):
    preds = torch.ge(scores, 0).long()
    acc = torch.eq(preds, labels).float()
    return torch.sum(acc) / labels.nelement()


def get_accuracy(scores, labels):
    _, preds = torch.max(scores, dim=-1)
    acc = torch.eq(preds, labels).float()
    return torch.sum(acc) / labels.nelement()


def get_accuracy_sym(scores, labels):
    max_scores, max_idx = torch.max(scores, dim=-1)
    lab_scores = scores.gather(1, labels.unsqueeze(1)).squeeze(1)
    acc = torch.eq(lab_scores, max_scores).float()
    return torch.sum(acc) / labels.nelement()


def zip_tensors(tup_list):
    res = []
    tup_list = zip(*tup_list)
    for a in tup_list:
        if type(a[0]) is int:
            res.append(torch.LongTensor(a).cuda())
        else:
            res.append(torch.stack(a, dim=0))
    return res
