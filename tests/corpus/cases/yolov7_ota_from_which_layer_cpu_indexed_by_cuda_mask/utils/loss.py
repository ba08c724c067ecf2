import torch
import torch.nn as nn
import torch.nn.functional as F

from utils.general import box_iou, xywh2xyxy
from utils.torch_utils import is_parallel


def smooth_BCE(eps=0.1):
    return 1.0 - 0.5 * eps, 0.5 * eps


class ComputeLossOTA:
    # Compute losses
    def __init__(self, model, autobalance=False):
        super(ComputeLossOTA, self).__init__()
        device = next(model.parameters()).device  # get model device
        h = model.hyp  # hyperparameters

        # Define criteria
        BCEcls = nn.BCEWithLogitsLoss(pos_weight=torch.tensor([h['cls_pw']], device=device))
        BCEobj = nn.BCEWithLogitsLoss(pos_weight=torch.tensor([h['obj_pw']], device=device))
        self.cp, self.cn = smooth_BCE(eps=h.get('label_smoothing', 0.0))  # positive, negative BCE targets

        det = model.module.model[-1] if is_parallel(model) else model.model[-1]  # Detect() module
        self.balance = {3: [4.0, 1.0, 0.4]}.get(det.nl, [4.0, 1.0, 0.25, 0.06, .02])  # P3-P7
        self.BCEcls, self.BCEobj, self.gr, self.hyp, self.autobalance = BCEcls, BCEobj, model.gr, h, autobalance
        for k in 'na', 'nc', 'nl', 'anchors', 'stride':
            setattr(self, k, getattr(det, k))

    def __call__(self, p, targets, imgs):  # predictions, targets, model
        device = targets.device
        lcls, lbox, lobj = torch.zeros(1, device=device), torch.zeros(1, device=device), torch.zeros(1, device=device)
        bs, as_, gjs, gis, targets, anchors = self.build_targets(p, targets, imgs)

        # Losses
        for i, pi in enumerate(p):  # layer index, layer predictions
            b, a, gj, gi = bs[i], as_[i], gjs[i], gis[i]  # image, anchor, gridy, gridx
            tobj = torch.zeros_like(pi[..., 0], device=device)  # target obj

            n = b.shape[0]  # number of targets
            if n:
                ps = pi[b, a, gj, gi]  # prediction subset corresponding to targets
                lbox += (ps[:, :4].sigmoid() - targets[i][:, 2:6]).abs().mean()  # stand-in for the CIoU loss
                tobj[b, a, gj, gi] = 1.0
                t = torch.full_like(ps[:, 5:], self.cn, device=device)  # targets
                t[range(n), targets[i][:, 1].long()] = self.cp
                lcls += self.BCEcls(ps[:, 5:], t)  # BCE

            obji = self.BCEobj(pi[..., 4], tobj)
            lobj += obji * self.balance[i]  # obj loss

        lbox *= self.hyp['box']
        lobj *= self.hyp['obj']
        lcls *= self.hyp['cls']
        bs = tobj.shape[0]  # batch size

        loss = lbox + lobj + lcls
        return loss * bs, torch.cat((lbox, lobj, lcls, loss)).detach()

    def build_targets(self, p, targets, imgs):
        """SimOTA-style assignment (condensed): for each image, gather the candidate
        cells of every layer, score them against the image's boxes, keep the
        dynamic top-k per box and split the kept candidates back by layer."""
        indices, anch = self.find_3_positive(p, targets)
        nl = len(p)
        keys = ('b', 'a', 'gj', 'gi', 'target', 'anch')
        matched = [{k: [] for k in keys} for _ in range(nl)]

        for batch_idx in range(p[0].shape[0]):
            this_target = targets[targets[:, 0] == batch_idx]
            if this_target.shape[0] == 0:
                continue
            txyxy = xywh2xyxy(this_target[:, 2:6] * imgs[batch_idx].shape[1])

            cand = {k: [] for k in ('b', 'a', 'gj', 'gi', 'anch', 'pxyxy', 'pcls')}
            from_which_layer = []
            for i, pi in enumerate(p):
                b, a, gj, gi = indices[i]
                idx = b == batch_idx
                b, a, gj, gi = b[idx], a[idx], gj[idx], gi[idx]
                for k, v in zip(('b', 'a', 'gj', 'gi', 'anch'), (b, a, gj, gi, anch[i][idx])):
                    cand[k].append(v)
                from_which_layer.append(torch.ones(size=(len(b),)) * i)

                fg_pred = pi[b, a, gj, gi]
                grid = torch.stack([gi, gj], dim=1)
                pxy = (fg_pred[:, :2].sigmoid() * 2. - 0.5 + grid) * self.stride[i]
                pwh = (fg_pred[:, 2:4].sigmoid() * 2) ** 2 * anch[i][idx] * self.stride[i]
                cand['pxyxy'].append(xywh2xyxy(torch.cat([pxy, pwh], dim=-1)))
                cand['pcls'].append(fg_pred[:, 5:].sigmoid() * fg_pred[:, 4:5].sigmoid())

            cand = {k: torch.cat(v, dim=0) for k, v in cand.items()}
            if cand['pxyxy'].shape[0] == 0:
                continue
            from_which_layer = torch.cat(from_which_layer, dim=0)

            # cost of assigning each candidate to each box: class BCE + 3 * IoU loss
            iou = box_iou(txyxy, cand['pxyxy'])
            num_gt = this_target.shape[0]
            gt_cls = F.one_hot(this_target[:, 1].long(), self.nc).float().unsqueeze(1).repeat(1, iou.shape[1], 1)
            cls_cost = F.binary_cross_entropy(cand['pcls'].unsqueeze(0).repeat(num_gt, 1, 1), gt_cls,
                                              reduction="none").sum(-1)
            cost = cls_cost + 3.0 * -torch.log(iou + 1e-8)

            dynamic_ks = torch.clamp(torch.topk(iou, min(10, iou.shape[1]), dim=1)[0].sum(1).int(), min=1)
            matching_matrix = torch.zeros_like(cost)
            for gt_idx in range(num_gt):
                _, pos_idx = torch.topk(cost[gt_idx], k=dynamic_ks[gt_idx].item(), largest=False)
                matching_matrix[gt_idx][pos_idx] = 1.0

            fg_mask_inboxes = matching_matrix.sum(0) > 0.0
            matched_gt_inds = matching_matrix[:, fg_mask_inboxes].argmax(0)
            from_which_layer = from_which_layer[fg_mask_inboxes]
            kept = {k: cand[k][fg_mask_inboxes] for k in ('b', 'a', 'gj', 'gi', 'anch')}
            kept['target'] = this_target[matched_gt_inds]

            for i in range(nl):
                layer_idx = from_which_layer == i
                for k in keys:
                    matched[i][k].append(kept[k][layer_idx])

        out = [[torch.cat(matched[i][k], dim=0) for i in range(nl)] for k in keys]
        return tuple(out)

    def find_3_positive(self, p, targets):
        # Build targets for compute_loss(), input targets(image,class,x,y,w,h)
        na, nt = self.na, targets.shape[0]  # number of anchors, targets
        indices, anch = [], []
        gain = torch.ones(7, device=targets.device).long()  # normalized to gridspace gain
        ai = torch.arange(na, device=targets.device).float().view(na, 1).repeat(1, nt)  # same as .repeat_interleave(nt)
        targets = torch.cat((targets.repeat(na, 1, 1), ai[:, :, None]), 2)  # append anchor indices

        for i in range(self.nl):
            anchors = self.anchors[i]
            gain[2:6] = torch.tensor(p[i].shape)[[3, 2, 3, 2]]  # xyxy gain

            # Match targets to anchors (the neighbouring-cell offsets are left out)
            t = targets * gain
            r = t[:, :, 4:6] / anchors[:, None]  # wh ratio
            j = torch.max(r, 1. / r).max(2)[0] < self.hyp['anchor_t']  # compare
            t = t[j]  # filter

            # Define
            b, c = t[:, :2].long().T  # image, class
            gxy = t[:, 2:4]  # grid xy
            gij = gxy.long()
            gi, gj = gij.T  # grid xy indices

            # Append
            a = t[:, 6].long()  # anchor indices
            indices.append((b, a, gj.clamp_(0, gain[3] - 1), gi.clamp_(0, gain[2] - 1)))  # image, anchor, grid indices
            anch.append(anchors[a])  # anchors

        return indices, anch
