import torch

from funasr.register import tables


class AutoModel:
    @staticmethod
    def build_model(**kwargs):
        # like funasr: the device defaults to "cuda" and falls back to the CPU
        device = kwargs.get("device", "cuda")
        if device == "cuda" and not torch.cuda.is_available():
            device = "cpu"
        kwargs["device"] = device

        model_class = tables.model_classes[kwargs["model"]]
        model = model_class(**kwargs.get("model_conf", {}))
        model.to(device)
        return model, kwargs
