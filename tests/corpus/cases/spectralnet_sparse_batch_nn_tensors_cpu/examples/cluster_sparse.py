import torch

from spectralnet import SpectralNet


def main():
    # the call: features of one dataset, clustered with a sparse graph
    feats = torch.randn(1000, 16)
    spectralnet = SpectralNet(
        n_clusters=4,
        is_sparse_graph=True,
        spectral_hiddens=[128, 128, 4],
        spectral_epochs=1,
        spectral_batch_size=200,
    )
    spectralnet.fit(feats)


if __name__ == "__main__":
    main()
