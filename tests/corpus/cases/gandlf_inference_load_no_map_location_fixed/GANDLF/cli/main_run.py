import torch

from GANDLF.compute import inference_loop


def main_run(data_csv, config_file, model_dir, train_mode, device, resume=False):
    # stand-in for the YAML config and the CSV of subjects
    parameters = {"model": {"architecture": "unet", "num_channels": 1, "class_list": [0, 1],
                            "base_filters": 8, "amp": False}}
    inference_data = torch.rand(2, 1, 16, 16, 16)
    if train_mode:
        raise NotImplementedError("training is not part of this stand-in")
    inference_loop(inference_data, device, parameters, model_dir)
