import torch
from torch import nn

idx2char = ["h", "i", "e", "l", "o"]
x_data = [0, 1, 0, 2, 3, 3]
one_hot_lookup = [[1, 0, 0, 0, 0], [0, 1, 0, 0, 0], [0, 0, 1, 0, 0], [0, 0, 0, 1, 0], [0, 0, 0, 0, 1]]
y_data = [1, 0, 2, 3, 3, 4]
x_one_hot = [one_hot_lookup[x] for x in x_data]


class Model(nn.Module):
    def __init__(self, input_size=5, hidden_size=5):
        super().__init__()
        self.rnn = nn.RNN(input_size=input_size, hidden_size=hidden_size, batch_first=True)

    def forward(self, x, hidden):
        out, hidden = self.rnn(x.view(1, 1, -1), hidden)
        return hidden, out.view(-1, 5)


inputs = torch.tensor(x_one_hot, dtype=torch.float32)
labels = torch.tensor(y_data)
model = Model()
if torch.cuda.is_available():
    model.cuda()
    inputs.cuda()
    labels.cuda()
criterion = nn.CrossEntropyLoss()
optimizer = torch.optim.Adam(model.parameters(), lr=0.1)
for epoch in range(100):
    optimizer.zero_grad()
    loss = 0
    hidden = torch.zeros(1, 1, 5, device=inputs.device)
    for input, label in zip(inputs, labels):
        hidden, output = model(input, hidden)
        loss += criterion(output, label.view(1))
    loss.backward()
    optimizer.step()
