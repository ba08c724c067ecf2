import torch

from functions import load_data
from models import Encoder, NNtraining, Predictor, SparseNN

device = torch.device("cuda:0" if torch.cuda.is_available() else "cpu")
print(f"Found device: {device}")
use_cuda = (True if torch.cuda.is_available() else False)

gene_size = [12, 8, 20, 5]
x, x_test, y, y_test = load_data("data/genotype.csv", "data/phenotype.csv")
batch_size = int(x.shape[0] / 100)

## Gene interaction NN training
encoder = Encoder(gene_size, device=device); predictor = Predictor(gene_size); ginn = SparseNN(encoder, predictor)
GINN = NNtraining(ginn, batch_size=batch_size, num_epoch=200, use_cuda=use_cuda)
GINN.training(x, y, x_test, y_test)

## Interaction detection
num_samples = 200
prediction_test, _, _ = GINN.model(x_test.to(device))
prediction_test.detach_()
value_high, idx_high = torch.topk(prediction_test.reshape(-1), int(num_samples / 2))
value_low, idx_low = torch.topk(prediction_test.reshape(-1), int(num_samples / 2), largest=False)
idx = torch.concat([idx_low, idx_high])
gene_test, _ = GINN.model.encoder(x_test[idx].to(device))
gene_test.detach_()
baseline = torch.mean(gene_test, dim=0).view(1, -1).to(device)
