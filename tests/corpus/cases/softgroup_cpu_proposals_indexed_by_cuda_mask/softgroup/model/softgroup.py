import torch
import torch.nn as nn

from ..ops import ball_query, bfs_cluster, voxelization
from ..util import cuda_cast


class SoftGroup(nn.Module):

    def __init__(self,
                 channels=32,
                 num_blocks=7,
                 semantic_classes=20,
                 instance_classes=18,
                 sem2ins_classes=[],
                 semantic_only=False,
                 ignore_label=-100,
                 grouping_cfg=None,
                 instance_voxel_cfg=None,
                 test_cfg=None):
        super().__init__()
        self.semantic_classes = semantic_classes
        self.instance_classes = instance_classes
        self.sem2ins_classes = sem2ins_classes
        self.semantic_only = semantic_only
        self.ignore_label = ignore_label
        self.grouping_cfg = grouping_cfg
        self.instance_voxel_cfg = instance_voxel_cfg
        self.test_cfg = test_cfg

        # the sparse-conv U-Net backbone is replaced by point-wise layers
        self.input_conv = nn.Linear(6, channels)
        self.semantic_linear = nn.Linear(channels, semantic_classes)
        self.offset_linear = nn.Linear(channels, 3)

        # instance head (tiny U-Net replaced as well)
        self.tiny_unet = nn.Linear(channels, channels)
        self.cls_linear = nn.Linear(channels, instance_classes + 1)
        self.mask_linear = nn.Linear(channels, instance_classes + 1)
        self.iou_score_linear = nn.Linear(channels, instance_classes + 1)

    def forward(self, batch, return_loss=False):
        if return_loss:
            raise NotImplementedError
        else:
            return self.forward_test(**batch)

    @cuda_cast
    def forward_test(self, batch_idxs, p2v_map, v2p_map, coords_float, feats, semantic_labels,
                     instance_labels, pt_offset_labels, batch_size, scan_ids, **kwargs):
        feats = torch.cat((feats, coords_float), 1)
        voxel_feats = voxelization(feats, p2v_map)
        semantic_scores, pt_offsets, output_feats = self.forward_backbone(voxel_feats, v2p_map)
        semantic_preds = semantic_scores.max(1)[1]
        ret = dict(scan_id=scan_ids[0])
        if 'semantic' in self.test_cfg.eval_tasks:
            ret.update(
                dict(
                    semantic_labels=semantic_labels.cpu().numpy(),
                    semantic_preds=semantic_preds.cpu().numpy()))
        if not self.semantic_only:
            if 'instance' in self.test_cfg.eval_tasks:
                proposals_idx, proposals_offset = self.forward_grouping(
                    semantic_scores, pt_offsets, batch_idxs, coords_float, self.grouping_cfg)
                inst_feats, inst_map = self.clusters_voxelization(proposals_idx, proposals_offset,
                                                                  output_feats, coords_float,
                                                                  **self.instance_voxel_cfg)
                cls_scores, iou_scores, mask_scores = self.forward_instance(inst_feats, inst_map)
                pred_instances = self.get_instances(scan_ids[0], proposals_idx, semantic_scores,
                                                    cls_scores, iou_scores, mask_scores)
                ret.update(dict(pred_instances=pred_instances))
        return ret

    def forward_backbone(self, input, input_map):
        output_feats = self.input_conv(input)[input_map.long()]
        semantic_scores = self.semantic_linear(output_feats)
        pt_offsets = self.offset_linear(output_feats)
        return semantic_scores, pt_offsets, output_feats

    def forward_grouping(self, semantic_scores, pt_offsets, batch_idxs, coords_float,
                         grouping_cfg=None):
        proposals_idx_list = []
        proposals_offset_list = []
        semantic_scores = semantic_scores.softmax(dim=-1)

        radius = self.grouping_cfg.radius
        mean_active = self.grouping_cfg.mean_active
        npoint_thr = self.grouping_cfg.npoint_thr
        class_numpoint_mean = torch.tensor(
            self.grouping_cfg.class_numpoint_mean, dtype=torch.float32)
        for class_id in range(self.semantic_classes):
            if class_id in self.grouping_cfg.ignore_classes:
                continue
            scores = semantic_scores[:, class_id].contiguous()
            object_idxs = (scores > self.grouping_cfg.score_thr).nonzero().view(-1)
            if object_idxs.size(0) < self.test_cfg.min_npoint:
                continue
            batch_idxs_ = batch_idxs[object_idxs]
            coords_ = coords_float[object_idxs]
            pt_offsets_ = pt_offsets[object_idxs]
            neighbor_inds, start_len = ball_query(coords_ + pt_offsets_, batch_idxs_, None,
                                                  radius, mean_active)
            proposals_idx, proposals_offset = bfs_cluster(class_numpoint_mean, neighbor_inds.cpu(),
                                                          start_len.cpu(), npoint_thr, class_id)
            proposals_idx[:, 1] = object_idxs[proposals_idx[:, 1].long()].int()

            # merge proposals
            if len(proposals_offset_list) > 0:
                proposals_idx[:, 0] += sum([x.size(0) for x in proposals_offset_list]) - 1
                proposals_offset += proposals_offset_list[-1][-1]
                proposals_offset = proposals_offset[1:]
            if proposals_idx.size(0) > 0:
                proposals_idx_list.append(proposals_idx)
                proposals_offset_list.append(proposals_offset)
        if len(proposals_idx_list) > 0:
            proposals_idx = torch.cat(proposals_idx_list, dim=0)
            proposals_offset = torch.cat(proposals_offset_list)
        else:
            proposals_idx = torch.zeros((0, 2), dtype=torch.int32)
            proposals_offset = torch.zeros((0, ), dtype=torch.int32)
        return proposals_idx, proposals_offset

    def clusters_voxelization(self, clusters_idx, clusters_offset, feats, coords, scale,
                              spatial_shape):
        batch_idx = clusters_idx[:, 0].cuda().long()
        c_idxs = clusters_idx[:, 1].cuda()
        feats = feats[c_idxs.long()]
        # one voxel per clustered point in the stand-in
        inp_map = torch.arange(feats.size(0), device=feats.device)
        return (feats, batch_idx), inp_map

    def forward_instance(self, inst_feats, inst_map):
        feats, batch_idx = inst_feats
        feats = self.tiny_unet(feats)

        # predict mask scores
        mask_scores = self.mask_linear(feats)
        mask_scores = mask_scores[inst_map.long()]

        # predict instance cls and iou scores (one instance per cluster id)
        num_instances = int(batch_idx.max()) + 1
        pooled = feats.new_zeros((num_instances, feats.size(1))).index_add_(0, batch_idx, feats)
        cls_scores = self.cls_linear(pooled)
        iou_scores = self.iou_score_linear(pooled)
        return cls_scores, iou_scores, mask_scores

    def get_instances(self, scan_id, proposals_idx, semantic_scores, cls_scores, iou_scores,
                      mask_scores):
        if proposals_idx.size(0) == 0:
            return []

        num_instances = cls_scores.size(0)
        num_points = semantic_scores.size(0)
        cls_scores = cls_scores.softmax(1)
        semantic_pred = semantic_scores.max(1)[1]
        cls_pred_list, score_pred_list, mask_pred_list = [], [], []
        for i in range(self.instance_classes):
            if i in self.sem2ins_classes:
                cls_pred = cls_scores.new_tensor([i + 1], dtype=torch.long)
                score_pred = cls_scores.new_tensor([1.], dtype=torch.float32)
                mask_pred = (semantic_pred == i)[None, :].int()
            else:
                cls_pred = cls_scores.new_full((num_instances, ), i + 1, dtype=torch.long)
                cur_cls_scores = cls_scores[:, i]
                cur_iou_scores = iou_scores[:, i]
                cur_mask_scores = mask_scores[:, i]
                score_pred = cur_cls_scores * cur_iou_scores.clamp(0, 1)
                mask_pred = torch.zeros((num_instances, num_points), dtype=torch.int, device='cuda')
                mask_inds = cur_mask_scores > self.test_cfg.mask_score_thr
                cur_proposals_idx = proposals_idx[mask_inds].long()
                mask_pred[cur_proposals_idx[:, 0], cur_proposals_idx[:, 1]] = 1

                # filter low score instance
                inds = cur_cls_scores > self.test_cfg.cls_score_thr
                cls_pred = cls_pred[inds]
                score_pred = score_pred[inds]
                mask_pred = mask_pred[inds]
            cls_pred_list.append(cls_pred.cpu())
            score_pred_list.append(score_pred.cpu())
            mask_pred_list.append(mask_pred.cpu())
        cls_pred = torch.cat(cls_pred_list).numpy()
        score_pred = torch.cat(score_pred_list).numpy()
        mask_pred = torch.cat(mask_pred_list).numpy()

        instances = []
        for i in range(cls_pred.shape[0]):
            instances.append(dict(scan_id=scan_id, label_id=cls_pred[i], conf=score_pred[i],
                                  pred_mask=mask_pred[i]))
        return instances
