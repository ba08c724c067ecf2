import torch

from tft_model import _TFTModule

model = _TFTModule(input_chunk_length=4, output_chunk_length=2, n_features=1)

# fit on the GPU: the first forward fills the mask and relative-index caches on cuda
model.to("cuda")
optimizer = torch.optim.Adam(model.parameters())
past = torch.randn(8, 4, 1, device="cuda")
future = torch.randn(8, 2, 1, device="cuda")
target = torch.randn(8, 2, 1, device="cuda")
loss = torch.nn.functional.mse_loss(model((past, future)), target)
loss.backward()
optimizer.step()

# after training the trainer moves the module back to the CPU for inference
model.to("cpu")
with torch.no_grad():
    prediction = model((torch.randn(8, 4, 1), torch.randn(8, 2, 1)))
print(prediction.shape)
