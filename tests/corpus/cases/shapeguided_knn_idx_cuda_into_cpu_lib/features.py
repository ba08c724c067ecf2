import torch
from sklearn.decomposition import sparse_encode


class Features(torch.nn.Module):
    """Memory banks of SDF and RGB patch features; test patches are reconstructed from their k nearest neighbours."""

    def __init__(self, image_size=224):
        super().__init__()
        self.device = "cuda" if torch.cuda.is_available() else "cpu"
        self.image_size = image_size
        self.sdf_patch_lib = []
        self.rgb_patch_lib = []

    def foreground_subsampling(self):
        self.sdf_patch_lib = torch.cat(self.sdf_patch_lib, 0)
        self.rgb_patch_lib = torch.cat(self.rgb_patch_lib, 0)

    def Dict_compute_rgb_map(self, rgb_patch_28, mode="testing"):
        shape_guide_rgb_features_28 = self.rgb_patch_lib
        dist_28 = torch.cdist(rgb_patch_28, shape_guide_rgb_features_28.to(self.device))
        knn_val, knn_idx = torch.topk(dist_28, k=5 + 1, largest=False)
        if mode == "alignment":
            knn_idx = knn_idx[:, 1:]
        else:
            knn_idx = knn_idx[:, :-1]

        dict_features_size28 = []
        rgb_patch_28 = rgb_patch_28.cpu()
        shape_guide_rgb_features_28 = shape_guide_rgb_features_28.cpu()
        for patch in range(knn_idx.shape[0]):
            knn_features = shape_guide_rgb_features_28[knn_idx[patch]]
            code_matrix = sparse_encode(X=rgb_patch_28[patch].view(1, -1).numpy(), dictionary=knn_features.numpy(),
                                        algorithm="omp", n_nonzero_coefs=3, alpha=1e-10)
            dict_features_size28.append(torch.matmul(torch.Tensor(code_matrix), knn_features))
        dict_features_size28 = torch.cat(dict_features_size28, 0)
        return torch.nn.PairwiseDistance(p=2, eps=1e-12)(rgb_patch_28, dict_features_size28)

    def Find_KNN_feature(self, feature, mode="testing"):
        patch_lib = self.sdf_patch_lib.to(self.device)
        dist = torch.cdist(feature, patch_lib)
        _, knn_idx = torch.topk(dist, k=10 + 1, largest=False)
        knn_idx = knn_idx.cpu()
        knn_idx = knn_idx[:, 1:] if mode == "alignment" else knn_idx[:, :-1]
        feature = feature.to("cpu")
        dict_features = []
        for patch in range(knn_idx.shape[0]):
            knn_features = self.sdf_patch_lib[knn_idx[patch]]
            code_matrix = sparse_encode(X=feature[patch].view(1, -1).numpy(), dictionary=knn_features.numpy(),
                                        algorithm="omp", n_nonzero_coefs=3, alpha=1e-10)
            dict_features.append(torch.matmul(torch.Tensor(code_matrix), knn_features))
        dict_features = torch.cat(dict_features, 0)
        return torch.nn.PairwiseDistance(p=2, eps=1e-12)(feature, dict_features).max()


if __name__ == "__main__":
    feats = Features()
    feats.sdf_patch_lib = [torch.randn(500, 128)]
    feats.rgb_patch_lib = [torch.randn(800, 256)]
    feats.foreground_subsampling()
    print(feats.Find_KNN_feature(torch.randn(64, 128, device=feats.device)))
    print(feats.Dict_compute_rgb_map(torch.randn(64, 256, device=feats.device)).shape)
