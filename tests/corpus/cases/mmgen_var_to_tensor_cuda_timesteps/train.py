import torch
import torch.nn as nn

from mmgen.models.diffusions import BasicGaussianDiffusion

denoising = nn.Sequential(nn.Conv2d(3, 32, 3, padding=1), nn.SiLU(), nn.Conv2d(32, 3, 3, padding=1))
model = BasicGaussianDiffusion(denoising, num_timesteps=4000)
model = model.cuda()

data_batch = dict(real_img=torch.randn(8, 3, 32, 32).cuda())
outputs = model.train_step(data_batch)
print(outputs)
