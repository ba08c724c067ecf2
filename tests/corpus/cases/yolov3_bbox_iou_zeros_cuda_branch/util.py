import torch

from bbox import bbox_iou


def write_results(prediction, confidence, num_classes, nms=True, nms_conf=0.4):
    """Confidence thresholding and per-class NMS over the raw detections of a batch."""
    conf_mask = (prediction[:, :, 4] > confidence).float().unsqueeze(2)
    prediction = prediction * conf_mask

    # center x, center y, width, height -> corner coordinates
    box_a = prediction.new(prediction.shape)
    box_a[:, :, 0] = prediction[:, :, 0] - prediction[:, :, 2] / 2
    box_a[:, :, 1] = prediction[:, :, 1] - prediction[:, :, 3] / 2
    box_a[:, :, 2] = prediction[:, :, 0] + prediction[:, :, 2] / 2
    box_a[:, :, 3] = prediction[:, :, 1] + prediction[:, :, 3] / 2
    prediction[:, :, :4] = box_a[:, :, :4]

    output = []
    for ind in range(prediction.size(0)):
        image_pred = prediction[ind]
        max_conf, max_conf_score = torch.max(image_pred[:, 5:5 + num_classes], 1)
        seq = (image_pred[:, :5], max_conf.float().unsqueeze(1), max_conf_score.float().unsqueeze(1))
        image_pred = torch.cat(seq, 1)

        image_pred_ = image_pred[torch.nonzero(image_pred[:, 4]).squeeze()].view(-1, 7)
        for cls in torch.unique(image_pred_[:, -1]):
            image_pred_class = image_pred_[image_pred_[:, -1] == cls]
            conf_sort_index = torch.sort(image_pred_class[:, 4], descending=True)[1]
            image_pred_class = image_pred_class[conf_sort_index]

            if nms:
                for i in range(image_pred_class.size(0)):
                    if i + 1 >= image_pred_class.size(0):
                        break
                    ious = bbox_iou(image_pred_class[i].unsqueeze(0), image_pred_class[i + 1:])
                    iou_mask = (ious < nms_conf).float().unsqueeze(1)
                    image_pred_class[i + 1:] *= iou_mask
                    image_pred_class = image_pred_class[torch.nonzero(image_pred_class[:, 4]).squeeze()].view(-1, 7)

            batch_ind = image_pred_class.new(image_pred_class.size(0), 1).fill_(ind)
            output.append(torch.cat((batch_ind, image_pred_class), 1))

    return torch.cat(output) if output else 0
