import torch
from torch import nn
import torch.nn.functional as F


class VAE(nn.Module):
    """Stand-in for the label / feature encoders and the shared decoder."""

    def __init__(self, args):
        super(VAE, self).__init__()
        self.args = args
        self.fe = nn.Sequential(nn.Linear(args.label_dim + args.feature_dim, args.emb_size), nn.ReLU())
        self.fe_mu = nn.Linear(args.emb_size, args.latent_dim)
        self.fe_logvar = nn.Linear(args.emb_size, args.latent_dim)
        self.fx = nn.Sequential(nn.Linear(args.feature_dim, args.emb_size), nn.ReLU())
        self.fx_mu = nn.Linear(args.emb_size, args.latent_dim)
        self.fx_logvar = nn.Linear(args.emb_size, args.latent_dim)
        self.label_lookup = nn.Linear(args.label_dim, args.latent_dim)
        self.fd = nn.Sequential(nn.Linear(args.feature_dim + args.latent_dim, args.emb_size), nn.ReLU(),
                                nn.Linear(args.emb_size, args.latent_dim))

    def label_forward(self, x, feat):
        h = self.fe(torch.cat((feat, x), 1))
        mu, logvar = self.fe_mu(h), self.fe_logvar(h)
        z = mu + torch.randn_like(mu) * torch.exp(0.5 * logvar)
        label_emb = self.fd(torch.cat((feat, z), 1))
        return {'fe_mu': mu, 'fe_logvar': logvar, 'label_emb': label_emb}

    def feat_forward(self, x):
        h = self.fx(x)
        mu, logvar = self.fx_mu(h), self.fx_logvar(h)
        z = mu + torch.randn_like(mu) * torch.exp(0.5 * logvar)
        feat_emb = self.fd(torch.cat((x, z), 1))
        return {'fx_mu': mu, 'fx_logvar': logvar, 'feat_emb': feat_emb}

    def forward(self, label, feature):
        fe_output = self.label_forward(label, feature)
        fx_output = self.feat_forward(feature)
        embs = self.label_lookup.weight  # (latent_dim, label_dim)
        output = dict(fe_output, **fx_output)
        output['embs'] = embs
        return output


def compute_loss(input_label, output, args=None, epoch=0, class_weights=None):
    embs = output['embs']
    pred_e = torch.sigmoid(output['label_emb'] @ embs)
    pred_x = torch.sigmoid(output['feat_emb'] @ embs)
    nll_loss = F.binary_cross_entropy(pred_e, input_label)
    nll_loss_x = F.binary_cross_entropy(pred_x, input_label)
    kl_loss = 0.5 * torch.mean(torch.exp(output['fx_logvar'] - output['fe_logvar']) - 1.
                               + (output['fe_mu'] - output['fx_mu']) ** 2 / torch.exp(output['fe_logvar'])
                               + output['fe_logvar'] - output['fx_logvar'])
    cpc_loss = latent_cpc_loss = single_label_recon_loss = 0.
    total_loss = (nll_loss + nll_loss_x) * args.nll_coeff + kl_loss
    return total_loss, nll_loss, nll_loss_x, 0., 0., kl_loss, cpc_loss, latent_cpc_loss, single_label_recon_loss, pred_e, pred_x
