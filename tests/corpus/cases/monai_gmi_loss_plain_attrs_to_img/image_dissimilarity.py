import torch
from torch.nn.modules.loss import _Loss


class GlobalMutualInformationLoss(_Loss):
    """Differentiable global mutual information loss via Parzen windowing (Gaussian kernel)."""

    def __init__(self, num_bins: int = 23, sigma_ratio: float = 0.5, reduction: str = "mean",
                 smooth_nr: float = 1e-7, smooth_dr: float = 1e-7) -> None:
        super().__init__(reduction=reduction)
        if num_bins <= 0:
            raise ValueError("num_bins must > 0, got {num_bins}")
        bin_centers = torch.linspace(0.0, 1.0, num_bins)  # (num_bins,)
        sigma = torch.mean(bin_centers[1:] - bin_centers[:-1]) * sigma_ratio
        self.num_bins = num_bins
        self.preterm = 1 / (2 * sigma**2)
        self.bin_centers = bin_centers[None, None, ...]
        self.smooth_nr = float(smooth_nr)
        self.smooth_dr = float(smooth_dr)

    def parzen_windowing_gaussian(self, img: torch.Tensor):
        img = torch.clamp(img, 0, 1)
        img = img.reshape(img.shape[0], -1, 1)  # (batch, num_sample, 1)
        weight = torch.exp(-self.preterm.to(img) * (img - self.bin_centers.to(img)) ** 2)  # (batch, num_sample, num_bin)
        weight = weight / torch.sum(weight, dim=-1, keepdim=True)
        probability = torch.mean(weight, dim=-2, keepdim=True)  # (batch, 1, num_bin)
        return weight, probability

    def forward(self, pred: torch.Tensor, target: torch.Tensor) -> torch.Tensor:
        if target.shape != pred.shape:
            raise ValueError(f"ground truth has differing shape ({target.shape}) from pred ({pred.shape})")
        wa, pa = self.parzen_windowing_gaussian(pred)
        wb, pb = self.parzen_windowing_gaussian(target)
        pab = torch.bmm(wa.permute(0, 2, 1), wb.to(wa)).div(wa.shape[1])  # (batch, num_bins, num_bins)
        papb = torch.bmm(pa.permute(0, 2, 1), pb.to(pa))  # (batch, num_bins, num_bins)
        mi = torch.sum(pab * torch.log((pab + self.smooth_nr) / (papb + self.smooth_dr) + self.smooth_dr), dim=(1, 2))
        return torch.mean(mi).neg()


if __name__ == "__main__":
    device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
    loss_fn = GlobalMutualInformationLoss().to(device)
    moving = torch.rand(2, 1, 32, 32, 32, device=device)
    fixed = torch.rand(2, 1, 32, 32, 32, device=device)
    print(loss_fn(moving, fixed).item())
