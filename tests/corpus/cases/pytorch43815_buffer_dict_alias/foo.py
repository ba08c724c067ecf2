import torch
import torch.nn as nn


class Foo(nn.Module):
    def __init__(self):
        super().__init__()
        self.data = {
            'a': torch.Tensor([1]),
            'b': torch.Tensor([1, 2, 3]),
        }
        for name in self.data:
            self.register_buffer('data_' + name, self.data[name])

    def forward(self, x):
        return x * self.data['b'] + self.data['a']


m = Foo()
print("m.data['a'] is m.data_a:", m.data['a'] is m.data_a)
print(m.data['a'].device, m.data_a.device)
m.cuda()
print("m.data['a'] is m.data_a:", m.data['a'] is m.data_a)
print(m.data['a'].device, m.data_a.device)

x = torch.randn(4, 3, device="cuda")
y = m(x)
