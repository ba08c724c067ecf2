import torch

DEVICE = torch.device("cuda" if torch.cuda.is_available() else "cpu")
TEST_BATCH_SIZE = 4096
