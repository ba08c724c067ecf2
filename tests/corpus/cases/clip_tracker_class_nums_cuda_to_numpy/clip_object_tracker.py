"""zero-shot-object-tracking's clip_object_tracker.py (at 6288f35^, the state the 'fix gpu bug' commit fixed), its
yolov5 path: the detector engine (utils/yolov5.py), the reduced NMS it calls (utils/general.py), deep_sort's
Detection (deep_sort/detection.py) and its numpy NMS (deep_sort/preprocessing.py) are inlined in this one module;
a small convolutional head stands in for the yolov5 checkpoint and a frame list for LoadImages."""
import argparse

import numpy as np
import torch
from torch import nn


class Detection(object):
    """A bounding box detection in a single image (deep_sort/detection.py)."""

    def __init__(self, tlwh, confidence, class_num, feature):
        self.tlwh = np.asarray(tlwh, dtype=np.float64)
        self.confidence = float(confidence)
        self.class_num = class_num
        self.feature = np.asarray(feature, dtype=np.float32)


def preprocessing_non_max_suppression(boxes, classes, max_bbox_overlap, scores=None):
    """deep_sort/preprocessing.py's numpy NMS (kept short: the order by score, no suppression)."""
    if len(boxes) == 0:
        return []
    return list(np.argsort(scores)[::-1]) if scores is not None else list(range(len(boxes)))


class TinyYolo(nn.Module):
    """Stands in for the yolov5 model attempt_load returns: one row (x, y, w, h, obj, classes...) per cell."""

    def __init__(self, nc=80):
        super().__init__()
        self.head = nn.Conv2d(3, 5 + nc, kernel_size=32, stride=32)
        self.names = [f'class{i}' for i in range(nc)]

    def forward(self, img, augment=False):
        p = self.head(img).flatten(2).transpose(1, 2)
        return (p.sigmoid(),)


def non_max_suppression(prediction, conf_thres=0.25, iou_thres=0.45, classes=None, agnostic=False, max_det=300):
    """utils/general.py, reduced: per image, rows (x1, y1, x2, y2, conf, cls) on the prediction's device."""
    output = []
    for x in prediction:
        conf, j = x[:, 5:].max(1, keepdim=True)
        box = torch.cat((x[:, :2] - x[:, 2:4] / 2, x[:, :2] + x[:, 2:4] / 2), 1)
        det = torch.cat((box, conf * x[:, 4:5], j.float()), 1)
        output.append(det[det[:, 4].argsort(descending=True)][:max_det])
    return output


class Yolov5Engine:
    """utils/yolov5.py: the detector and its NMS."""

    def __init__(self, device, classes, conf_thres, iou_thres, agnostic_nms, augment, half):
        self.model = TinyYolo().to(device)
        if half:
            self.model.half()
        self.classes = classes
        self.conf_thres = conf_thres
        self.iou_thres = iou_thres
        self.augment = augment
        self.agnostic_nms = agnostic_nms

    def infer(self, img):
        pred = self.model(img, augment=self.augment)[0]
        pred = self.nms(pred)
        return pred

    def nms(self, pred):
        out = non_max_suppression(pred, self.conf_thres, self.iou_thres, classes=self.classes, agnostic=self.agnostic_nms)
        return out


def encoder(image, boxes):
    """tools/generate_clip_detections.py's box encoder, reduced: one feature row per box (boxes on the CPU)."""
    return [np.array(box.cpu()).repeat(128) for box in boxes]


def detect():
    device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
    half = device.type != 'cpu'  # half precision only supported on CUDA
    yolov5_engine = Yolov5Engine(device, opt.classes, opt.confidence, opt.overlap, opt.agnostic_nms, opt.augment, half)

    dataset = [np.zeros((3, 640, 640), dtype=np.uint8)]
    for img in dataset:
        img = torch.from_numpy(img).to(device)
        img = img.half() if half else img.float()  # uint8 to fp16/32
        img /= 255.0  # 0 - 255 to 0.0 - 1.0
        if img.ndimension() == 3:
            img = img.unsqueeze(0)
        im0 = np.zeros((640, 640, 3), dtype=np.uint8)

        pred = yolov5_engine.infer(img)

        for i, det in enumerate(pred):  # detections per image
            if len(det):
                # Transform bboxes from tlbr to tlwh
                trans_bboxes = det[:, :4].clone()
                trans_bboxes[:, 2:] -= trans_bboxes[:, :2]
                bboxes = trans_bboxes[:, :4].cpu()
                confs = det[:, 4]
                class_nums = det[:, -1]
                classes = class_nums

                # encode yolo detections and feed to tracker
                features = encoder(im0, bboxes)
                detections = [Detection(bbox, conf, class_num, feature) for bbox, conf, class_num, feature in zip(
                    bboxes, confs, classes, features)]

                # run non-maxima supression
                boxs = np.array([d.tlwh for d in detections])
                scores = np.array([d.confidence for d in detections])
                class_nums = np.array([d.class_num for d in detections])
                indices = preprocessing_non_max_suppression(boxs, class_nums, opt.nms_max_overlap, scores)
                detections = [detections[i] for i in indices]
                print(len(detections), 'detections')


if __name__ == '__main__':
    parser = argparse.ArgumentParser()
    parser.add_argument('--confidence', type=float, default=0.40)
    parser.add_argument('--overlap', type=float, default=0.30)
    parser.add_argument('--classes', nargs='+', type=int)
    parser.add_argument('--agnostic-nms', action='store_true')
    parser.add_argument('--augment', action='store_true')
    parser.add_argument('--nms_max_overlap', type=float, default=1.0)
    opt = parser.parse_args()
    with torch.no_grad():
        detect()
