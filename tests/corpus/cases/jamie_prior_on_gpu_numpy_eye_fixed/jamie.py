from itertools import product
import warnings

import numpy as np
from scipy.optimize import linear_sum_assignment
from sklearn.metrics.pairwise import pairwise_distances
import torch
import torch.nn as nn
import torch.optim as optim
import unioncom.UnionCom as uc
from unioncom.utils import geodesic_distances, init_random_seed


class edModel(nn.Module):
    """Coupled autoencoders (stand-in for jamie/model.py's edModelVar): one encoder and decoder
    per modality, the latent embeddings averaged through the correspondence matrix."""

    def __init__(self, input_dims, output_dim, dropout=None):
        super().__init__()
        self.num_modalities = len(input_dims)
        self.encoders = nn.ModuleList([nn.Linear(dim, output_dim) for dim in input_dims])
        self.decoders = nn.ModuleList([nn.Linear(output_dim, dim) for dim in input_dims])

    def forward(self, *x, corr=None):
        embedded = [self.encoders[i](x[i]) for i in range(self.num_modalities)]
        combined = [
            .5 * (embedded[0] + torch.mm(corr, embedded[1])),
            .5 * (embedded[1] + torch.mm(torch.t(corr), embedded[0])),
        ]
        reconstructed = [self.decoders[i](combined[i]) for i in range(self.num_modalities)]
        return embedded, combined, reconstructed


class JAMIE(uc.UnionCom):
    """
    Adaptation of https://github.com/caokai1073/UnionCom by caokai1073

    P: Correspondence prior matrix
    PF_Ratio: Ratio of priors:assumed correspondence; .5 is equal, 1 is only P
    """
    def __init__(self, match_result=None, PF_Ratio=None, model_class=edModel, model_lr=1e-3,
                 dropout=None, use_f_tilde=True, in_place=False, min_epochs=500, **kwargs):
        self.match_result = match_result
        self.PF_Ratio = PF_Ratio
        self.model_class = model_class
        self.model_lr = model_lr
        self.dropout = dropout
        self.use_f_tilde = use_f_tilde
        self.in_place = in_place
        self.min_epochs = min_epochs

        # Default changes
        defaults = {
            'project_mode': 'jamie',
            'log_pd': 500,
            'lr': 1e-3,
            'epoch_DNN': 10000,
            'log_DNN': 500,
            'batch_size': 512,
        }
        for k, v in defaults.items():
            if k not in kwargs:
                kwargs[k] = v

        super().__init__(**kwargs)

    def fit_transform(self, dataset=None, P=None):
        """Fit function with ``nlma`` added"""
        self.P = P

        if self.integration_type != 'MultiOmics':
            raise Exception("JAMIE is only compatible with integration_type: 'MultiOmics'.")

        init_random_seed(self.manual_seed)
        self.device = torch.device('cuda:0' if torch.cuda.is_available() else 'cpu')

        self.dataset = dataset
        # Make a copy
        if not self.in_place:
            self.dataset = self.dataset * 1

        self.dataset_num = len(self.dataset)
        self.col = []
        self.row = []
        for i in range(self.dataset_num):
            self.row.append(np.shape(self.dataset[i])[0])
            self.col.append(np.shape(self.dataset[i])[1])

        # Compute the distance matrix
        self.compute_distances(save_dist=self.match_result is None and self.use_f_tilde)

        # Find correspondence between samples
        if not self.use_f_tilde:
            self.match_result = [np.zeros([d.shape[0] for d in self.dataset])]
        self.match_result = self.match() if self.match_result is None else self.match_result
        pairs_x = []
        pairs_y = []
        for i in range(self.dataset_num - 1):
            cost = np.max(self.match_result[i]) - self.match_result[i]
            row_ind, col_ind = linear_sum_assignment(cost)
            pairs_x.append(row_ind)
            pairs_y.append(col_ind)

        #  Project to common embedding
        match_matrix = [[None for j in range(self.dataset_num)] for i in range(self.dataset_num)]
        k = 0
        for i, j in product(*(2 * [range(self.dataset_num)])):
            if i == j:
                mat = None
            elif i > j:
                mat = match_matrix[j][i].T
            else:
                mat = self.match_result[k]
                k += 1
            match_matrix[i][j] = mat
        integrated_data = self.project_jamie(match_matrix)

        print('JAMIE Done!')
        return integrated_data

    def match(self):
        """Find correspondence between multi-omics datasets"""
        print('Device:', self.device)
        cor_pairs = []
        for i in range(self.dataset_num):
            for j in range(i, self.dataset_num):
                if i == j:
                    continue
                F = self.Prime_Dual([self.dist[i], self.dist[j]], dx=self.col[i], dy=self.col[j])
                cor_pairs.append(F)

        print("Finished Matching!")
        return cor_pairs

    def Prime_Dual(self, dist, dx=None, dy=None, verbose=True):
        """Prime dual combined with Adam algorithm to find the local optimal solution"""
        Kx = dist[0]
        Ky = dist[1]

        N = int(np.maximum(Kx.shape[0], Ky.shape[0]))
        Kx = Kx / N
        Ky = Ky / N
        Kx = torch.from_numpy(Kx).float().to(self.device)
        Ky = torch.from_numpy(Ky).float().to(self.device)
        a = np.sqrt(dy/dx)
        m = np.shape(Kx)[0]
        n = np.shape(Ky)[0]

        F = torch.zeros((m, n)).float().to(self.device)
        Im = torch.ones((m, 1)).float().to(self.device)
        In = torch.ones((n, 1)).float().to(self.device)
        Inn = torch.ones((n, n)).float().to(self.device)
        Lambda = torch.zeros((n, 1)).float().to(self.device)
        Mu = torch.zeros((m, 1)).float().to(self.device)
        S = torch.zeros((n, 1)).float().to(self.device)

        pho1 = 0.9
        pho2 = 0.999
        delta = 10e-8
        Fst_moment = torch.zeros((m, n)).float().to(self.device)
        Snd_moment = torch.zeros((m, n)).float().to(self.device)

        i = 0
        while i < self.epoch_pd:
            FKy = torch.mm(F, Ky)
            grad = (
                4 * torch.mm(FKy, torch.mm(torch.t(F), FKy))
                - 4 * a * torch.mm(Kx, FKy)
                + torch.mm(Mu, torch.t(In))
                + torch.mm(Im, torch.t(Lambda))
                + self.rho * (torch.mm(F, Inn) + torch.mm(Im, torch.mm(torch.t(Im), F) + torch.t(S - 2 * In)))
            )

            i += 1
            Fst_moment = pho1 * Fst_moment + (1 - pho1) * grad
            Snd_moment = pho2 * Snd_moment + (1 - pho2) * grad * grad
            hat_Fst_moment = Fst_moment / (1 - np.power(pho1, i))
            hat_Snd_moment = Snd_moment / (1 - np.power(pho2, i))
            grad = hat_Fst_moment / (torch.sqrt(hat_Snd_moment) + delta)
            F_tmp = F - grad
            F_tmp[F_tmp < 0] = 0

            # update
            F = (1 - self.epsilon) * F + self.epsilon * F_tmp

            # update slack variable
            grad_s = Lambda + self.rho*(torch.mm(torch.t(F), Im) - In + S)
            s_tmp = S - grad_s
            s_tmp[s_tmp < 0] = 0
            S = (1-self.epsilon)*S + self.epsilon*s_tmp

            # update dual variables
            Mu = Mu + self.epsilon*(torch.mm(F, In) - Im)
            Lambda = Lambda + self.epsilon*(torch.mm(torch.t(F), Im) - In + S)

            # if scaling factor changes too fast, we can delay the update
            if i >= self.delay:
                a = (
                    torch.trace(torch.mm(Kx, torch.mm(torch.mm(F, Ky), torch.t(F))))
                    / torch.trace(torch.mm(Kx, Kx))
                )

        return F.cpu().detach().numpy()

    def project_jamie(self, W):
        """Perform alignment using TSNE-like backend"""
        print('Train coupled autoencoders')
        assert len(W) == 2, 'Currently only compatible with 2 modalities.'

        # Default vars
        if self.P is None:
            # If not given, assume total alignment iff datasets are same size
            if self.row[0] == self.row[1]:
                self.P = np.eye(self.row[0])
            else:
                self.P = np.zeros((self.row[0], self.row[1]))

        self.P = torch.Tensor(self.P).float().to(self.device)
        self.F = torch.Tensor(W[0][1]).float().to(self.device)

        # Create model
        self.model = self.model_class(self.col, self.output_dim, dropout=self.dropout).to(self.device)
        optimizer = optim.Adam(self.model.parameters(), lr=self.model_lr)
        self.model.train()

        # Convert data
        for i in range(self.dataset_num):
            self.dataset[i] = torch.from_numpy(self.dataset[i]).float().to(self.device)

        # Batch size setup, mainly from UnionCom
        len_dataloader = int(np.max(self.row)/self.batch_size)
        if len_dataloader == 0:
            len_dataloader = 1
            self.batch_size = np.max(self.row)

        # Sampling method setup
        self.PF_Ratio = 1 if self.PF_Ratio is None else self.PF_Ratio
        if self.P.shape[0] == self.P.shape[1] and torch.abs(self.P - torch.eye(self.row[0], device=self.device)).sum() == 0:
            self.sampling_method = 'diag'

        elif torch.abs(self.P).sum() != 0:
            self.sampling_method = 'hybrid'
            self.corr_samples = torch.argwhere(self.P > 0).cpu()
            self.num_corr = len(self.corr_samples[0])
            self.true_ratio = .8

        else:
            self.sampling_method = 'zeros'

        for epoch in range(self.epoch_DNN):
            for batch_idx in range(len_dataloader):
                rep = min(ci for ci in self.col) < self.batch_size
                if self.sampling_method == 'diag':
                    # Sample from diagonal
                    set_rand = np.random.choice(range(self.row[0]), self.batch_size, replace=rep)
                    random_batch = [set_rand for i in range(self.dataset_num)]
                else:
                    # Sample randomly
                    random_batch = [
                        np.random.choice(range(self.row[i]), self.batch_size, replace=rep)
                        for i in range(self.dataset_num)]
                data = [self.dataset[i][random_batch[i]] for i in range(self.dataset_num)]

                # P setup
                P = self.P[random_batch[0]][:, random_batch[1]]
                P_sum = P.sum(axis=1)
                P_sum[P_sum == 0] = 1
                P = P / P_sum[:, None]

                # F setup
                F = self.F[random_batch[0]][:, random_batch[1]]
                F_sum = F.sum(axis=1)
                F_sum[F_sum == 0] = 1
                F = F / F_sum[:, None]

                # Aggregate correspondence
                corr = self.PF_Ratio * P + (1-self.PF_Ratio) * F

                # Run model
                embedded, combined, reconstructed = self.model(*data, corr=corr)
                reconstruction_loss = sum(
                    (reconstructed[i] - data[i]).square().mean(axis=1).mean(axis=0)
                    for i in range(self.dataset_num)
                )
                F_est = torch.square(combined[0] - torch.mm(F, combined[1])).mean(axis=1).mean(axis=0)
                batch_loss = reconstruction_loss + F_est

                batch_loss.backward()
                torch.nn.utils.clip_grad_norm_(self.model.parameters(), 1)
                optimizer.step()
                optimizer.zero_grad()

        self.model.eval()
        corr_P = self.P / self.P.sum(0)[None, :]
        corr_F = self.F / self.F.sum(0)[None, :]
        corr = self.PF_Ratio * corr_P + (1-self.PF_Ratio) * corr_F
        integrated_data = self.model(*self.dataset, corr=corr)[0]
        integrated_data = [d.detach().cpu().numpy() for d in integrated_data]
        print("Finished Mapping!")
        return integrated_data

    def compute_distances(self, save_dist=True):
        """Helper function to compute distances for each dataset"""
        if save_dist:
            self.dist = []
        for i in range(self.dataset_num):
            if self.distance_mode == 'geodesic':
                def distance_function(df):
                    distances = geodesic_distances(df, self.kmax)
                    return np.array(distances)
            else:
                def distance_function(df):
                    return pairwise_distances(df, metric=self.distance_mode)

            self.distance_function = distance_function
            if save_dist:
                distances = self.distance_function(self.dataset[i])
                self.dist.append(distances)


if __name__ == "__main__":
    # README example: two modalities of the same cells, fully matched prior
    data1 = np.random.rand(300, 20)
    data2 = np.random.rand(300, 30)
    corr = np.eye(data1.shape[0], data2.shape[0])

    jm = JAMIE(min_epochs=500)
    integrated_data = jm.fit_transform(dataset=[data1, data2], P=corr)
