import torch
import numpy as np

from copy import deepcopy


def select_index(model, data, c=9, p=2, worst_case=False):
    '''
    Select the attack target class
    '''
    model.eval()
    data = data.cuda()
    data.requires_grad = True
    model.zero_grad()
    output = model(data)
    output, ind = torch.sort(output, descending=True)
    n = len(data)
    q = 2
    if p == 8:
        q = 1

    true_out = output[range(n), n * [0]]
    z_true = torch.sum(true_out)
    data.grad = None
    z_true.backward(retain_graph=True)
    true_grad = data.grad
    pers = torch.zeros(len(data), 1 + c).cuda()

    for i in range(1, 1 + c):
        z = torch.sum(output[:, i])
        data.grad = None
        model.zero_grad()
        z.backward(retain_graph=True)
        grad = data.grad
        grad_diff = torch.norm(grad.data.view(n, -1) - true_grad.data.view(n, -1), p=q, dim=1)
        pers[:, i] = (true_out.data - output[:, i].data) / grad_diff

    if not worst_case:
        pers[range(n), n * [0]] = np.inf
        pers[pers < 0] = 0
        per, index = torch.min(pers, 1)
    else:
        pers[range(n), n * [0]] = -np.inf
        per, index = torch.max(pers, 1)

    output = []
    for i in range(data.size(0)):
        output.append(ind[i, index[i]].item())
    return np.array(output)


def tr_attack(model, data, true_ind, target_ind, eps, p=2):
    """First-order TR attack towards `target_ind`."""
    model.eval()
    data = data.cuda()
    data.requires_grad = True
    model.zero_grad()
    output = model(data)
    n = len(data)

    q = 2
    if p == 8:
        q = 1

    output_g = output[range(n), target_ind] - output[range(n), true_ind]
    z = torch.sum(output_g)

    data.grad = None
    model.zero_grad()
    z.backward()
    update = deepcopy(data.grad.data)
    update = update.view(n, -1)
    per = (-output_g.data.view(n, -1) + 0.) / (torch.norm(update, p=q, dim=1).view(n, 1) + 1e-6)

    if p == 8:
        update = torch.sign(update)
    elif p == 2:
        update = update.view(n, -1)
        update = update / (torch.norm(update, p=2, dim=1).view(n, 1) + 1e-6)
    per = per.view(-1)
    per_mask = per > eps
    per_mask = per_mask.nonzero().view(-1)
    per[per_mask] = eps
    X_adv = data.data + (((per + 1e-4) * 1.02).view(n, -1) * update.view(n, -1)).view(data.size())
    X_adv = torch.clamp(X_adv, torch.min(data.data), torch.max(data.data))
    return X_adv


def tr_attack_iter(model, data, target, eps, c=9, p=2, iter=100, worst_case=False):
    X_adv = deepcopy(data.cuda())
    target_ind = select_index(model, data, c=c, p=p, worst_case=worst_case)

    update_num = 0.
    for i in range(iter):
        model.eval()
        Xdata, Ytarget = X_adv, target.cuda()
        Xoutput = model(Xdata)
        Xpred = Xoutput.data.max(1, keepdim=True)[1]
        tmp_mask = Xpred.view_as(Ytarget) == Ytarget.data
        update_num += torch.sum(tmp_mask.long())
        if torch.sum(tmp_mask.long()) < 1:
            return X_adv.cpu(), update_num
        attack_mask = tmp_mask.nonzero().view(-1).cpu()
        X_adv[attack_mask, :] = tr_attack(model, X_adv[attack_mask, :], target[attack_mask], target_ind[attack_mask], eps, p=p)
    return X_adv.cpu(), update_num


def tr_attack_adaptive(model, data, true_ind, target_ind, eps, p=2):
    """TR attack with an adaptive trust radius (reduced: one radius update)."""
    model.eval()
    data = data.cuda()
    data.requires_grad = True
    model.zero_grad()
    output = model(data)
    n = len(data)

    output_g = output[range(n), target_ind] - output[range(n), true_ind]
    z = torch.sum(output_g)

    data.grad = None
    model.zero_grad()
    z.backward()
    update = deepcopy(data.grad.data)
    update = update.view(n, -1)
    update = update / (torch.norm(update, p=2, dim=1).view(n, 1) + 1e-6)
    eps = eps.view(n, -1)
    X_adv = data.data + (1.02 * (eps + 1e-4) * update.view(n, -1)).view(data.size())
    X_adv = torch.clamp(X_adv, torch.min(data.data), torch.max(data.data))
    return X_adv, eps


def tr_attack_adaptive_iter(model, data, target, eps, c=9, p=2, iter=100, worst_case=False):
    X_adv = deepcopy(data.cuda())
    target_ind = select_index(model, data, c=c, p=p, worst_case=worst_case)

    update_num = 0.
    eps = torch.from_numpy(np.array([eps] * len(data))).view(len(data), -1)
    eps = eps.type(torch.FloatTensor).cuda()
    for i in range(iter):
        model.eval()
        Xdata, Ytarget = X_adv, target.cuda()
        Xoutput = model(Xdata)
        Xpred = Xoutput.data.max(1, keepdim=True)[1]
        tmp_mask = Xpred.view_as(Ytarget) == Ytarget.data
        update_num += torch.sum(tmp_mask.long())
        if torch.sum(tmp_mask.long()) < 1:
            return X_adv.cpu(), update_num
        attack_mask = tmp_mask.nonzero().view(-1).cpu()
        X_adv[attack_mask, :], eps[attack_mask, :] = tr_attack_adaptive(model, X_adv[attack_mask, :], target[attack_mask], target_ind[attack_mask], eps[attack_mask, :], p=p)
    return X_adv.cpu(), update_num
