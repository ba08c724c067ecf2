# The cells of Demo.ipynb, in order
from Focal_Loss import focal_loss
import torch

pred = torch.randn((3, 5))
label = torch.tensor([2, 3, 4])

# alpha as a float: class 0 (background in detection) is down-weighted
loss_fn = focal_loss(alpha=0.25, gamma=2, num_classes=5)
loss = loss_fn(pred, label)
print(loss)

# alpha as a list: one weight per class
loss_fn = focal_loss(alpha=[1, 2, 3, 1, 2], gamma=2, num_classes=5)
loss = loss_fn(pred, label)
print(loss)

# on the GPU
pred = pred.to('cuda')
label = label.to('cuda')
loss_fn = focal_loss(alpha=[1, 2, 3, 1, 2], gamma=2, num_classes=5)
loss = loss_fn(pred, label)
print(loss)
