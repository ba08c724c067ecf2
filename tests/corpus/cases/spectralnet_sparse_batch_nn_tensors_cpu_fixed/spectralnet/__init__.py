from ._cluster import SpectralNet
