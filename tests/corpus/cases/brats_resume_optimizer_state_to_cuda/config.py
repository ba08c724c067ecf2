import torch

# Device Init
device = 'cuda' if torch.cuda.is_available() else 'cpu'

# Model output shape Init
class_num = 2
