import torch
import torch.nn as nn

from gr00t.model.action_head.flow_matching_action_head import (
    FlowmatchingActionHead,
    FlowmatchingActionHeadConfig,
)


class EagleBackbone(nn.Module):
    def __init__(self, image_dim=3 * 32 * 32, embedding_dim=256):
        super().__init__()
        self.proj = nn.Linear(image_dim, embedding_dim)

    def forward(self, video):
        # (B, T, C, H, W) -> (B, T, D)
        return self.proj(video.flatten(2))


class GR00T_N1_5(nn.Module):
    def __init__(self, action_head_config: FlowmatchingActionHeadConfig):
        super().__init__()
        self.backbone = EagleBackbone(embedding_dim=action_head_config.backbone_embedding_dim)
        self.action_head = FlowmatchingActionHead(action_head_config)

    @classmethod
    def from_pretrained(cls, model_path):
        # stand-in for the Hugging Face checkpoint: the config saved with the model
        return cls(FlowmatchingActionHeadConfig(action_horizon=16))

    def prepare_input(self, inputs):
        device = next(self.parameters()).device
        return {k: torch.as_tensor(v, dtype=torch.float32).to(device) for k, v in inputs.items()}

    def get_action(self, inputs):
        inputs = self.prepare_input(inputs)
        vl_embs = self.backbone(inputs["video"])
        actions = self.action_head.get_action(vl_embs, inputs["state"])
        return {"action_pred": actions}
