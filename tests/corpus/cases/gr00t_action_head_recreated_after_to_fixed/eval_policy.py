import numpy as np

from gr00t.model.policy import Gr00tPolicy

# the fine-tuned embodiment predicts 8 steps, the base checkpoint 16
modality_config = {"action": list(range(8)), "video": [0], "state": [0]}

policy = Gr00tPolicy(model_path="nvidia/GR00T-N1.5-3B", modality_config=modality_config)

for step in range(3):
    observations = {
        "video": np.random.rand(1, 1, 3, 32, 32).astype(np.float32),
        "state": np.random.rand(1, 64).astype(np.float32),
    }
    action = policy.get_action(observations)
    print(step, action["action"].shape)
