import torch
from torch.utils.data import DataLoader, Dataset


class ScanNetDataset(Dataset):
    """Stand-in for the ScanNet v2 scenes: random points, colours and labels."""

    def __init__(self, num_scans=2, num_points=400):
        self.num_scans = num_scans
        self.num_points = num_points

    def __len__(self):
        return self.num_scans

    def __getitem__(self, index):
        n = self.num_points
        return dict(
            scan_id='scene%04d_00' % index,
            coords_float=torch.rand(n, 3),
            feats=torch.rand(n, 3),
            semantic_labels=torch.randint(0, 20, (n, )),
            instance_labels=torch.randint(0, 10, (n, )),
            pt_offset_labels=torch.rand(n, 3))

    def collate_fn(self, batch):
        assert len(batch) == 1
        b = batch[0]
        n = b['coords_float'].size(0)
        return dict(
            scan_ids=[b['scan_id']],
            batch_idxs=torch.zeros(n, dtype=torch.int32),
            p2v_map=torch.arange(n, dtype=torch.int32),
            v2p_map=torch.arange(n, dtype=torch.int32),
            coords_float=b['coords_float'],
            feats=b['feats'],
            semantic_labels=b['semantic_labels'],
            instance_labels=b['instance_labels'],
            pt_offset_labels=b['pt_offset_labels'],
            batch_size=1)


def build_dataset(data_cfg, logger=None):
    return ScanNetDataset()


def build_dataloader(dataset, batch_size=1, num_workers=0, training=False, dist=False):
    return DataLoader(dataset, batch_size=batch_size, num_workers=num_workers,
                      collate_fn=dataset.collate_fn, shuffle=False)
