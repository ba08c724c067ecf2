import torch
import torch.nn as nn
import torch.nn.functional as F


class MIAODHead(nn.Module):
    """MI-AOD head: two adversarial classifiers (f_1, f_2), a box regressor and
    the MIL image classifier. Anchor assignment is reduced to all-negative
    targets for the detection loss; the image-level (MIL) loss is kept."""

    def __init__(self, num_classes, in_channels, num_anchors=9):
        super(MIAODHead, self).__init__()
        self.cls_out_channels = num_classes
        self.num_anchors = num_anchors
        self.f_1_convs = nn.Conv2d(in_channels, num_anchors * num_classes, 3, padding=1)
        self.f_2_convs = nn.Conv2d(in_channels, num_anchors * num_classes, 3, padding=1)
        self.f_r_convs = nn.Conv2d(in_channels, num_anchors * 4, 3, padding=1)
        self.f_mil = nn.Conv2d(in_channels, num_anchors * num_classes, 3, padding=1)

    def forward_single(self, x):
        y_head_f_1 = self.f_1_convs(x)
        y_head_f_2 = self.f_2_convs(x)
        y_head_f_r = self.f_r_convs(x)
        y_head_cls_term2 = self.f_mil(x)
        y_head_cls = y_head_cls_term2.permute(0, 2, 3, 1).reshape(y_head_f_1.shape[0], -1, self.cls_out_channels)
        y_head_cls = y_head_cls.softmax(2) * (y_head_cls.softmax(1) / 2)
        return y_head_f_1, y_head_f_2, y_head_f_r, y_head_cls

    def forward(self, feats):
        return tuple(map(list, zip(*[self.forward_single(x) for x in feats])))

    def forward_train(self, x, img_metas, y_loc_img, y_cls_img=None, y_loc_img_ignore=None):
        outs = self(x)
        loss_inputs = outs + (y_loc_img, y_cls_img, img_metas)
        losses = self.L_det(*loss_inputs, y_loc_img_ignore=y_loc_img_ignore)
        return losses

    def l_det(self, y_head_f_single):
        y_head_f_single = y_head_f_single.permute(0, 2, 3, 1).reshape(-1, self.cls_out_channels)
        y_cls_single = torch.zeros_like(y_head_f_single)
        return F.binary_cross_entropy_with_logits(y_head_f_single, y_cls_single)

    def L_det(self, y_f_1, y_f_2, y_f_r, y_head_cls, y_loc_img, y_cls_img, img_metas, y_loc_img_ignore=None):
        l_det_cls = [self.l_det(y_f_single) for y_f_single in y_f_1]
        l_det_loc = [y_f_r_single.abs().mean() * 0 for y_f_r_single in y_f_r]
        # compute mil loss
        y_head_cls_1level, y_cls_1level = self.get_img_gtlabel_score(y_cls_img, y_head_cls)
        l_imgcls = self.l_imgcls(y_head_cls_1level, y_cls_1level)
        return dict(l_det_cls=l_det_cls, l_det_loc=l_det_loc, l_imgcls=[l_imgcls])

    def l_imgcls(self, y_head_cls_1level, y_cls_1level):
        return F.binary_cross_entropy(y_head_cls_1level, y_cls_1level)

    def get_img_gtlabel_score(self, y_cls_img, y_head_cls):
        y_head_cls_1level = torch.zeros(len(y_cls_img), self.cls_out_channels, device=y_head_cls[0].device)
        y_cls_1level = torch.zeros(len(y_cls_img), self.cls_out_channels, device=y_head_cls[0].device)
        for i_img in range(len(y_cls_img)):
            for i_obj in range(len(y_cls_img[i_img])):
                y_cls_1level[i_img, y_cls_img[i_img][i_obj]] = 1
        for y_head_cls_single in y_head_cls:
            y_head_cls_1level = torch.max(y_head_cls_1level, y_head_cls_single.sum(1))
        y_head_cls_1level = y_head_cls_1level.clamp(1e-5, 1.0-1e-5)
        return y_head_cls_1level, y_cls_1level
