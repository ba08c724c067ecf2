import numpy as np
import torch

from gr00t.model.gr00t_n1 import GR00T_N1_5


class Gr00tPolicy:
    """Wraps a GR00T checkpoint: loads the model, normalises observations, predicts actions."""

    def __init__(self, model_path, modality_config, device="cuda" if torch.cuda.is_available() else "cpu"):
        self._modality_config = modality_config
        self.device = device
        self._load_model(model_path)

    def _load_model(self, model_path):
        model = GR00T_N1_5.from_pretrained(model_path)
        model.eval()  # Set model to eval mode
        model.to(device=self.device)

        # Update action_horizon to match modality config
        expected_action_horizon = len(self._modality_config["action"])
        if expected_action_horizon != model.action_head.config.action_horizon:
            print(
                f"Policy: Recreating action head with action_horizon {expected_action_horizon} "
                f"(was {model.action_head.config.action_horizon})"
            )
            new_action_head_config = model.action_head.config
            new_action_head_config.action_horizon = expected_action_horizon

            from gr00t.model.action_head.flow_matching_action_head import FlowmatchingActionHead

            # Create new action head with updated config and copy the old weights
            new_action_head = FlowmatchingActionHead(new_action_head_config)
            new_action_head.load_state_dict(model.action_head.state_dict(), strict=False)
            model.action_head = new_action_head

        self.model = model

    def get_action(self, observations):
        with torch.inference_mode():
            model_pred = self.model.get_action(observations)
        return {"action": model_pred["action_pred"].float().cpu().numpy()}
