import torch
import torchvision

from plots import output_to_target


def non_max_suppression(prediction, conf_thres=0.001, iou_thres=0.65):
    """Returns one (n, 6) tensor [x1, y1, x2, y2, conf, cls] per image, on the prediction's device."""
    output = []
    for x in prediction:
        x = x[x[:, 4] > conf_thres]
        boxes = x[:, :4]
        keep = torchvision.ops.nms(boxes, x[:, 4], iou_thres)
        output.append(torch.cat((boxes[keep], x[keep, 4:5], x[keep, 5:].argmax(1, keepdim=True).float()), 1))
    return output


@torch.no_grad()
def test(model, dataloader, device):
    model.eval()
    for batch_i, (img, targets, paths, shapes) in enumerate(dataloader):
        img = img.to(device).float() / 255.0
        _, _, height, width = img.shape
        inf_out = model(img)
        output = non_max_suppression(inf_out)
        if batch_i < 3:
            predictions = output_to_target(output, width, height)
            print(predictions.shape)
