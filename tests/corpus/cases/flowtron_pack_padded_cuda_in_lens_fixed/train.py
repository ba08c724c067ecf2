import torch
from torch.utils.data import DataLoader

from data import Data, DataCollate
from flowtron import Flowtron


def train(n_epochs=2, batch_size=4, learning_rate=1e-3):
    torch.manual_seed(1234)
    model = Flowtron().cuda()
    optimizer = torch.optim.Adam(model.parameters(), lr=learning_rate)
    criterion = torch.nn.MSELoss()
    train_loader = DataLoader(Data(), shuffle=True, batch_size=batch_size, collate_fn=DataCollate())

    model.train()
    for epoch in range(n_epochs):
        for batch in train_loader:
            model.zero_grad()
            mel, speaker_vecs, text, in_lens, out_lens, gate_target = batch
            mel, speaker_vecs, text = mel.cuda(), speaker_vecs.cuda(), text.cuda()
            in_lens, out_lens, gate_target = in_lens.cuda(), out_lens.cuda(), gate_target.cuda()

            pred = model(mel, speaker_vecs, text, in_lens, out_lens)
            loss = criterion(pred, mel)
            loss.backward()
            optimizer.step()
        print("epoch", epoch)


if __name__ == "__main__":
    train()
