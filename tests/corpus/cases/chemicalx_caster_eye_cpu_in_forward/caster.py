"""An implementation of the CASTER model (chemicalx/models/caster.py), with a small stand-in for chemicalx's
training pipeline (chemicalx.pipeline: model and batches on the device, Adam, the CASTER loss)."""

from typing import Tuple

import torch


class CASTER(torch.nn.Module):
    """An implementation of the CASTER model from [huang2020]_."""

    def __init__(
        self,
        *,
        drug_channels: int,
        encoder_hidden_channels: int = 32,
        encoder_output_channels: int = 32,
        decoder_hidden_channels: int = 32,
        hidden_channels: int = 32,
        out_hidden_channels: int = 32,
        out_channels: int = 1,
        lambda3: float = 1e-5,
        magnifying_factor: int = 100,
    ):
        super().__init__()
        self.lambda3 = lambda3
        self.magnifying_factor = magnifying_factor
        self.drug_channels = drug_channels

        # encoder
        self.encoder = torch.nn.Sequential(
            torch.nn.Linear(self.drug_channels, encoder_hidden_channels),
            torch.nn.ReLU(True),
            torch.nn.Linear(encoder_hidden_channels, encoder_output_channels),
        )

        # decoder
        self.decoder = torch.nn.Sequential(
            torch.nn.Linear(encoder_output_channels, decoder_hidden_channels),
            torch.nn.ReLU(True),
            torch.nn.Linear(decoder_hidden_channels, drug_channels),
        )

        # predictor: eight layer NN
        predictor_layers = []
        predictor_layers.append(torch.nn.Linear(self.drug_channels, hidden_channels))
        predictor_layers.append(torch.nn.ReLU(True))
        for i in range(1, 6):
            predictor_layers.append(torch.nn.BatchNorm1d(hidden_channels))
            if i < 5:
                predictor_layers.append(torch.nn.Linear(hidden_channels, hidden_channels))
            else:
                predictor_layers.append(torch.nn.Linear(hidden_channels, out_hidden_channels))
            predictor_layers.append(torch.nn.ReLU(True))
        predictor_layers.append(torch.nn.Linear(out_hidden_channels, out_channels))
        predictor_layers.append(torch.nn.Sigmoid())
        self.predictor = torch.nn.Sequential(*predictor_layers)

    def unpack(self, drug_features_left, drug_features_right) -> Tuple[torch.FloatTensor]:
        """Return the "functional representation" of drug pairs, as defined in the original implementation."""
        pair_representation = (torch.maximum(drug_features_left, drug_features_right) >= 1.0).float()
        return (pair_representation,)

    def dictionary_encoder(
        self, drug_pair_features_latent: torch.FloatTensor, dictionary_features_latent: torch.FloatTensor
    ) -> torch.FloatTensor:
        """Perform a forward pass of the dictionary encoder submodule."""
        dict_feat_squared = torch.matmul(dictionary_features_latent, dictionary_features_latent.transpose(2, 1))
        dict_feat_squared_inv = torch.inverse(dict_feat_squared + self.lambda3 * (torch.eye(self.drug_channels)))
        dict_feat_closed_form = torch.matmul(dict_feat_squared_inv, dictionary_features_latent)
        r = drug_pair_features_latent[:, None, :].matmul(dict_feat_closed_form.transpose(2, 1)).squeeze(1)
        return r

    def forward(self, drug_pair_features: torch.FloatTensor) -> Tuple[torch.FloatTensor, ...]:
        """Run a forward pass of the CASTER model."""
        drug_pair_features_latent = self.encoder(drug_pair_features)
        dictionary_features_latent = self.encoder(torch.eye(self.drug_channels))
        dictionary_features_latent = dictionary_features_latent.mul(drug_pair_features[:, :, None])
        drug_pair_features_reconstructed = self.decoder(drug_pair_features_latent)
        reconstructed = torch.sigmoid(drug_pair_features_reconstructed)
        dictionary_encoded = self.dictionary_encoder(drug_pair_features_latent, dictionary_features_latent)
        prediction_scores = self.predictor(self.magnifying_factor * dictionary_encoded)

        return (
            prediction_scores,
            reconstructed,
            dictionary_encoded,
            dictionary_features_latent,
            drug_pair_features_latent,
            drug_pair_features,
        )


def caster_loss(outputs, target, recon_loss_coeff=0.1, proj_coeff=0.1, lambda1=0.01, lambda2=0.1):
    score, recon, code, dictionary_features_latent, drug_pair_features_latent, drug_pair_features = outputs
    batch_size, _ = drug_pair_features.shape
    bce = torch.nn.BCELoss()
    loss_prediction = bce(score, target.float())
    loss_reconstruction = recon_loss_coeff * bce(recon, drug_pair_features)
    loss_projection = proj_coeff * (torch.norm(drug_pair_features_latent[:, None, :] - torch.matmul(code[:, None, :], dictionary_features_latent))
                                    + lambda1 * torch.sum(torch.abs(code)) / batch_size)
    return loss_prediction + loss_reconstruction + loss_projection


def pipeline(drug_channels=24, epochs=2, batch_size=8):
    """Stand-in for chemicalx.pipeline on a DrugbankDDI-like dataset of substructure fingerprints."""
    device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
    model = CASTER(drug_channels=drug_channels).to(device)
    optimizer = torch.optim.Adam(model.parameters(), lr=1e-3)
    left = (torch.rand(64, drug_channels) > 0.7).float()
    right = (torch.rand(64, drug_channels) > 0.7).float()
    labels = (torch.rand(64, 1) > 0.5).float()
    model.train()
    for epoch in range(epochs):
        for start in range(0, 64, batch_size):
            l, r, y = (t[start:start + batch_size].to(device) for t in (left, right, labels))
            optimizer.zero_grad()
            outputs = model(*model.unpack(l, r))
            loss = caster_loss(outputs, y)
            loss.backward()
            optimizer.step()
        print(epoch, loss.item())


if __name__ == "__main__":
    pipeline()
