from abc import ABC, abstractmethod

import numpy as np
import torch
from torch.utils.data import DataLoader

from clip_eval.models.hf_siglip import SiglipModel as HF_SiglipModel
from clip_eval.models.hf_siglip import SiglipProcessor as HF_SiglipProcessor


class CLIPModel(ABC):
    def __init__(self, title, title_in_source=None, device=None, **kwargs):
        self.__title = title
        self.__title_in_source = title_in_source or title
        device = device or ("cuda" if torch.cuda.is_available() else "cpu")
        self._check_device(device)
        self.__device = torch.device(device)

    @property
    def title(self):
        return self.__title

    @property
    def title_in_source(self):
        return self.__title_in_source

    @property
    def device(self):
        return self.__device

    @abstractmethod
    def _setup(self, **kwargs):
        pass

    @staticmethod
    def _check_device(device):
        if device not in {"cuda", "cpu"}:
            raise ValueError(f"Unrecognized device: {device}")
        if not getattr(torch, device).is_available():
            raise ValueError(f"Unavailable device: {device}")


class SiglipModel(CLIPModel):
    def __init__(self, title, title_in_source=None, device=None, **kwargs):
        super().__init__(title, title_in_source, device, **kwargs)
        self._setup()

    def _setup(self, **kwargs):
        self.model = HF_SiglipModel.from_pretrained(self.title_in_source).to(self.device)
        self.processor = HF_SiglipProcessor.from_pretrained(self.title_in_source)
        self.process_fn = self.define_process_fn()

    def define_process_fn(self):
        def process_fn(batch):
            images = batch["image"]
            batch["image"] = [
                self.processor(images=[i], return_tensors="pt").to(self.device).pixel_values.squeeze() for i in images
            ]
            return batch

        return process_fn

    def build_embedding(self, dataloader: DataLoader):
        tmp_embeddings = []
        tmp_labels = []
        with torch.inference_mode():
            for batch in dataloader:
                tmp_labels.append(batch["labels"])
                features = self.model.get_image_features(pixel_values=batch["pixel_values"])
                emb = (features / features.norm(p=2, dim=-1, keepdim=True)).squeeze()
                tmp_embeddings.append(emb.to("cpu"))
        image_embeddings = np.concatenate(tmp_embeddings, 0)
        class_array = torch.concatenate(tmp_labels)
        labels = class_array.numpy()
        return image_embeddings, labels

    def get_transform(self):
        return self.process_fn
