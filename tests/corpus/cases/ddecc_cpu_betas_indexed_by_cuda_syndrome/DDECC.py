"""
Implementation of "Denoising Diffusion Error Correction Codes" (DDECC)
"""
from torch.nn import LayerNorm
import torch
import torch.nn as nn
import torch.nn.functional as F
import copy
from Codes import sign_to_bin, bin_to_sign


def clones(module, N):
    return nn.ModuleList([copy.deepcopy(module) for _ in range(N)])


class Encoder(nn.Module):
    """ECCT decoder stack (reduced: masked self-attention layers are linear layers)."""
    def __init__(self, size, N):
        super(Encoder, self).__init__()
        self.layers = clones(nn.Linear(size, size), N)
        self.norm = LayerNorm(size)

    def forward(self, x, mask, time_emb):
        for layer in self.layers:
            x = F.gelu(layer(x))
        return self.norm(x)


class DDECCT(nn.Module):
    def __init__(self, args, device, dropout=0):
        super(DDECCT, self).__init__()
        self.n_steps = args.N_steps
        self.d_model = args.d_model
        self.sigma = args.sigma
        self.register_buffer('pc_matrix', args.code.pc_matrix.transpose(0, 1).float())
        self.device = device
        #
        betas = torch.linspace(1e-3, 1e-2, self.n_steps)
        betas = betas*0+self.sigma
        self.betas = betas.view(-1, 1)
        self.betas_bar = torch.cumsum(self.betas, 0).view(-1, 1)
        self.ema = EMA(0.9, flag_run=True)
        ###
        self.line_search = False
        ###
        code = args.code
        self.src_embed = torch.nn.Parameter(torch.empty(
            (code.n + code.pc_matrix.size(0), args.d_model)))
        self.decoder = Encoder(args.d_model, args.N_dec)
        self.oned_final_embed = torch.nn.Sequential(
            *[nn.Linear(args.d_model, 1)])
        self.out_fc = nn.Linear(code.n + code.pc_matrix.size(0), code.n)
        self.time_embed = nn.Embedding(self.n_steps, args.d_model)

        self.get_mask(code)
        ###
        for p in self.parameters():
            if p.dim() > 1:
                nn.init.xavier_uniform_(p)

    def forward(self, y, time_step):
        magnitude = torch.abs(y)
        syndrome = torch.matmul(sign_to_bin(torch.sign(y)).long().float(),
                                self.pc_matrix) % 2
        syndrome = bin_to_sign(syndrome)
        emb = torch.cat([magnitude, syndrome], -1).unsqueeze(-1)
        emb = self.src_embed.unsqueeze(0) * emb
        time_emb = self.time_embed(time_step).view(-1, 1, self.d_model)
        emb = time_emb * emb
        emb = self.decoder(emb, self.src_mask, time_emb)
        return self.out_fc(self.oned_final_embed(emb).squeeze(-1))

    def p_sample(self, yt):
        # Single sampling from the real p dist.
        sum_syndrome = (torch.matmul(sign_to_bin(torch.sign(yt.to(self.device))), self.pc_matrix) % 2).round().long().sum(-1)
        t = sum_syndrome
        # Model output
        noise_mul_pred = self(yt.to(self.device), sum_syndrome.to(self.device)).cpu()  # predicted multiplicative noise
        noise_add_pred = yt-torch.sign(-noise_mul_pred * torch.sign(yt))  # predicted additive noise
        factor = (torch.sqrt(self.betas_bar[t])*self.betas[t]/(self.betas_bar[t]+self.betas[t]))  # theoretical step size
        alpha_final = 1
        yt_1 = yt - alpha_final*noise_add_pred*factor
        yt_1[t == 0] = yt[t == 0]  # if some codeword has 0 synd. keep it as is
        return (yt_1), t

    def p_sample_loop(self, cur_y):
        # Iterative sampling from the real p dist.
        res = []
        synd_all = []
        for it in range(self.pc_matrix.shape[1]):
            cur_y, curr_synd = self.p_sample(cur_y)
            synd_all.append(curr_synd)
            res.append(cur_y)
        synd_all = torch.stack(synd_all).t().cpu()
        # Chose the biggest iteration that reaches 0 synd.
        aa = (synd_all == 0).int()*2-1
        idx = torch.arange(aa.shape[1], 0, -1)
        idx_conv = torch.argmax(aa * idx, 1, keepdim=True)
        return cur_y, res, idx_conv.view(-1), synd_all

    def loss(self, x_0):
        t = torch.randint(0, self.n_steps, size=(x_0.shape[0] // 2 + 1,))
        t = torch.cat([t, self.n_steps - t - 1], dim=0)[:x_0.shape[0]].long()
        e = torch.randn_like(x_0)
        noise_factor = torch.sqrt(self.betas_bar[t]).to(x_0.device)
        h = 1.
        yt = h*x_0 * 1 + e * noise_factor
        sum_syndrome = (torch.matmul(sign_to_bin(torch.sign(yt.to(self.device))),
                        self.pc_matrix) % 2).sum(-1).long()
        #
        output = self(yt.to(self.device), sum_syndrome.to(self.device))
        z_mul = (yt * x_0)
        return F.binary_cross_entropy_with_logits(output, sign_to_bin(torch.sign(z_mul.to(self.device))))

    def get_mask(self, code, no_mask=False):
        if no_mask:
            self.src_mask = None
            return
        mask_size = code.n + code.pc_matrix.size(0)
        mask = torch.eye(mask_size, mask_size)
        src_mask = ~ (mask > 0).unsqueeze(0).unsqueeze(0)
        self.register_buffer('src_mask', src_mask)


class EMA(object):
    def __init__(self, mu=0.999, flag_run=True):
        self.mu = mu
        self.shadow = {}
        self.flag_run = flag_run

    def register(self, module):
        if self.flag_run:
            for name, param in module.named_parameters():
                if param.requires_grad:
                    self.shadow[name] = param.data.clone()

    def update(self, module):
        if self.flag_run:
            for name, param in module.named_parameters():
                if param.requires_grad:
                    self.shadow[name].data = (1. - self.mu) * param.data + self.mu * self.shadow[name].data
