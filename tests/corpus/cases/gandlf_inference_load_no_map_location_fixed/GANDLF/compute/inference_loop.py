import os

import torch
from torch.utils.data import DataLoader, TensorDataset

from GANDLF.models import global_models_dict
from GANDLF.utils import send_model_to_device


def inference_loop(inferenceData, device, parameters, outputDir):
    """
    Args:
        inferenceData (torch.Tensor): stand-in for the data frame of subjects to infer.
        device (str): The device to perform computations on.
        parameters (dict): The parameters dictionary.
        outputDir (str): The model directory.
    """
    model = global_models_dict[parameters["model"]["architecture"]](parameters=parameters)
    inference_loader = DataLoader(TensorDataset(inferenceData), batch_size=1)

    # Loading the weights into the model
    main_dict = outputDir
    if os.path.isdir(outputDir):
        file_to_check = os.path.join(outputDir, str(parameters["model"]["architecture"]) + "_best.pth.tar")
        if not os.path.isfile(file_to_check):
            raise ValueError("The model specified model was not found:", file_to_check)
    main_dict = torch.load(file_to_check, map_location=torch.device(device))
    model.load_state_dict(main_dict["model_state_dict"])

    model, parameters["model"]["amp"], parameters["device"] = send_model_to_device(
        model, parameters["model"]["amp"], device, optimizer=None
    )
    print("Using device:", parameters["device"], flush=True)

    model.eval()
    with torch.no_grad():
        for (image,) in inference_loader:
            output = model(image.float().to(parameters["device"]))
            print("segmentation", tuple(output.shape), float(output.argmax(dim=1).float().mean()))
