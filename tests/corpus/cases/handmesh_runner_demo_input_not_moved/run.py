import numpy as np
import torch

from utils.vis import base_transform, map2uv


class Runner(object):
    def __init__(self, args, model, faces, device):
        super(Runner, self).__init__()
        self.args = args
        self.model = model
        self.device = device
        self.faces = faces
        self.std = torch.tensor(0.2).to(device)

    def phrase_data(self, data):
        for key, val in data.items():
            if isinstance(val, list):
                data[key] = [d.to(self.device) for d in data[key]]
            else:
                data[key] = data[key].to(self.device)
        return data

    def demo(self, images):
        self.model.eval()
        results = []
        with torch.no_grad():
            for step, image in enumerate(images):
                input = torch.from_numpy(base_transform(image, size=224)).unsqueeze(0)
                out = self.model(input)
                pred = out['mesh_pred'][0] if isinstance(out['mesh_pred'], list) else out['mesh_pred']
                vertex = (pred[0].cpu() * self.std.cpu()).numpy()
                uv_point_pred, uv_pred_conf = map2uv(out['uv_pred'].cpu().numpy(), (input.size(2), input.size(3)))
                results.append((vertex, uv_point_pred[0]))
                print(step, vertex.shape, uv_point_pred.shape)
        return results
