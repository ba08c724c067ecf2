"""HID2020 gait baseline test script, with the network (models/) and the data stand-ins (datasets/,
utils/) folded into it."""
import numpy as np
import torch
import torch.nn as nn
import torch.utils.data as tordata
from torch.utils.data import DataLoader
from torch.utils.data.sampler import SequentialSampler


class SetNet(nn.Module):
    """Gait baseline: frame-level convolutions, set pooling over the frames, a horizontal-bin head."""

    def __init__(self, hidden_dim=32, num_bin=4, num_classes=10):
        super().__init__()
        self.num_bin = num_bin
        self.frame_conv = nn.Sequential(
            nn.Conv2d(1, 16, kernel_size=5, padding=2), nn.LeakyReLU(inplace=True),
            nn.Conv2d(16, hidden_dim, kernel_size=3, padding=1), nn.LeakyReLU(inplace=True),
            nn.MaxPool2d(2),
        )
        self.fc_bin = nn.Parameter(torch.randn(num_bin, hidden_dim, hidden_dim))
        self.cls = nn.Linear(num_bin * hidden_dim, num_classes)

    def forward(self, silho):
        n, s, h, w = silho.size()
        x = self.frame_conv(silho.reshape(n * s, 1, h, w))
        _, c, hh, ww = x.size()
        x = x.view(n, s, c, hh, ww).max(1)[0]  # set pooling over the frames
        feature = x.view(n, c, self.num_bin, -1).mean(3) + x.view(n, c, self.num_bin, -1).max(3)[0]
        feature = feature.permute(2, 0, 1).matmul(self.fc_bin).permute(1, 0, 2).contiguous()
        fc = feature.view(n, -1)
        out = self.cls(fc)
        return fc, out


def get_model(config):
    return SetNet(hidden_dim=config["hidden_dim"], num_bin=config["num_bin"], num_classes=config["num_classes"])


class Sequence:
    """One silhouette sequence of the gallery (stand-in for the xarray DataArray: `.values` is the numpy array)."""

    def __init__(self, values):
        self.values = values


class ProbeDataset(tordata.Dataset):
    def __init__(self, n_seq=6, frames=8, size=32, seed=0):
        rng = np.random.default_rng(seed)
        self.seqs = [rng.random((frames, size, size), dtype=np.float32) for _ in range(n_seq)]
        self.vids = [f"probe_{i}" for i in range(n_seq)]

    def __len__(self):
        return len(self.seqs)

    def __getitem__(self, i):
        return self.seqs[i], self.vids[i], -1, None


def collate_fn(batch):
    seqs, vids, labels, extra = zip(*batch)
    return np.stack(seqs), list(vids), list(labels), list(extra)


def get_initial_test(config, test=True, n_gallery=5, frames=8, size=32):
    rng = np.random.default_rng(1)
    data_gallery = [Sequence(rng.random((frames, size, size), dtype=np.float32)) for _ in range(n_gallery)]
    vid_gallery = [f"gallery_{i}" for i in range(n_gallery)]
    label_gallery = list(range(n_gallery))
    return ProbeDataset(), (data_gallery, vid_gallery, label_gallery)


class Test(object):
    def __init__(self, config):
        self.config = config
        self.model = None
        self.dataset = None
        self.data_loader = None
        self.collate_fn = None

    def initialization(self):
        self.model = get_model(self.config)
        if torch.cuda.device_count() > 1:
            self.model = torch.nn.DataParallel(self.model)
        self.model = self.model.cuda()
        self.collate_fn = collate_fn

    def extract_gallery_feature(self, data_gallery, len_gallery):
        features = list()
        for i in range(len_gallery):
            seq = data_gallery[i].values
            seq = torch.from_numpy(np.asarray(seq))
            seq = torch.unsqueeze(seq, 0)
            seq = seq.cuda()

            fc, out = self.model(seq)
            n, num_bin = fc.size()
            feat = fc.view(n, -1).data.cpu().numpy()
            for ii in range(n):
                feat[ii] = feat[ii] / (np.linalg.norm(feat[ii]) + 1e-12)
            features.append(feat)
        return features

    def run(self):
        self.model = self.model.eval()
        self.dataset, test_gallery = get_initial_test(self.config, test=True)
        data_gallery, vID_gallery, label_gallery = test_gallery[0], test_gallery[1], test_gallery[2]
        self.data_loader = DataLoader(dataset=self.dataset, batch_size=1, sampler=SequentialSampler(self.dataset),
                                      collate_fn=self.collate_fn)

        feature_gallery = self.extract_gallery_feature(data_gallery, len(label_gallery))

        probe_feature = list()
        probe_vID = list()
        for seq, vID, label, _ in self.data_loader:
            seq = torch.from_numpy(seq).float().cuda()
            fc, out = self.model(seq)
            n, num_bin = fc.size()
            feat = fc.view(n, -1).data.cpu().numpy()
            for ii in range(n):
                feat[ii] = feat[ii] / (np.linalg.norm(feat[ii]) + 1e-12)
            probe_feature.append(feat)
            probe_vID += vID
        print(len(feature_gallery), np.concatenate(probe_feature, 0).shape, probe_vID)


def main():
    config = {"hidden_dim": 32, "num_bin": 4, "num_classes": 10}
    tester = Test(config)
    tester.initialization()
    with torch.no_grad():
        tester.run()
    print("Test complete !!")


if __name__ == "__main__":
    main()
