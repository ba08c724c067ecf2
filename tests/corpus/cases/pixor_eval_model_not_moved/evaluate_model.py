import numpy as np
import torch

from load_data import load_dataset
from pixor import PIXOR


def evaluate_model(model, data_loader, score_threshold=0.5):
    model.eval()
    n_detections = 0
    for batch_data, batch_labels, batch_calib in data_loader:
        with torch.set_grad_enabled(False):
            batch_predictions = model(batch_data)
            batch_predictions = np.transpose(batch_predictions.detach().numpy(), (0, 2, 3, 1))
            n_detections += int((batch_predictions[..., 0] > score_threshold).sum())
    return n_detections


if __name__ == "__main__":
    device = torch.device("cuda:0" if torch.cuda.is_available() else "cpu")
    data_loader = load_dataset(root="Data/", batch_size=1, device=device)
    pixor = PIXOR()
    pixor.load_state_dict(torch.load("Models/PIXOR_Epoch_17.pt", map_location=device))
    print(evaluate_model(pixor, data_loader))
