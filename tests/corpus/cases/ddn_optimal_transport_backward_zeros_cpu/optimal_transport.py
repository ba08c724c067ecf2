# Optimal transport node: a differentiable Sinkhorn layer.  The forward pass normalises
# exp(-gamma * M) to the row and column sums r and c; the backward pass differentiates the
# fixed point implicitly instead of unrolling the iterations.

import torch
import torch.nn as nn
import warnings


def sinkhorn(M, r=None, c=None, gamma=1.0, eps=1.0e-6, maxiters=1000):
    """Entropy regularised optimal transport on batched (B, H, W) costs, differentiable by autograd."""
    B, H, W = M.shape
    assert r is None or r.shape == (B, H) or r.shape == (1, H)
    assert c is None or c.shape == (B, W) or c.shape == (1, W)

    r = 1.0 / H if r is None else r.unsqueeze(dim=2)
    c = 1.0 / W if c is None else c.unsqueeze(dim=1)

    P = torch.exp(-1.0 * gamma * (M - torch.amin(M, 2, keepdim=True)))
    for i in range(maxiters):
        alpha = torch.sum(P, 2)
        P = P / alpha.view(B, H, 1) * r

        beta = torch.sum(P, 1)
        if torch.max(torch.abs(beta - c)) <= eps:
            break
        P = P / beta.view(B, 1, W) * c

    return P


def _sinkhorn_inline(M, r=None, c=None, gamma=1.0, eps=1.0e-6, maxiters=1000):
    """As sinkhorn, in place, for when autograd is not needed."""
    B, H, W = M.shape
    assert r is None or r.shape == (B, H) or r.shape == (1, H)
    assert c is None or c.shape == (B, W) or c.shape == (1, W)

    r = 1.0 / H if r is None else r.unsqueeze(dim=2)
    c = 1.0 / W if c is None else c.unsqueeze(dim=1)

    P = torch.exp(-1.0 * gamma * (M - torch.amin(M, 2, keepdim=True)))
    for i in range(maxiters):
        alpha = torch.sum(P, 2)
        P /= alpha.view(B, H, 1); P *= r

        beta = torch.sum(P, 1)
        if torch.max(torch.abs(beta - c)) <= eps:
            break
        P /= beta.view(B, 1, W); P *= c

    return P


class OptimalTransportFcn(torch.autograd.Function):
    """Autograd function for entropy regularised optimal transport with an implicit backward pass.

    M: (B, H, W); r: (B, H), (1, H) or None; c: (B, W), (1, W) or None (positive, normalised here).
    """

    @staticmethod
    def forward(ctx, M, r=None, c=None, gamma=1.0, eps=1.0e-6, maxiters=1000, approx_grad=False, block_inverse=True):
        with torch.no_grad():
            # normalise r and c to sum to one, keeping the factors for the backward pass
            if r is not None:
                ctx.inv_r_sum = 1.0 / torch.sum(r, dim=1, keepdim=True)
                r = ctx.inv_r_sum * r
            if c is not None:
                ctx.inv_c_sum = 1.0 / torch.sum(c, dim=1, keepdim=True)
                c = ctx.inv_c_sum * c

            P = _sinkhorn_inline(M, r, c, gamma, eps, maxiters)

        ctx.save_for_backward(M, r, c, P)
        ctx.gamma = gamma
        ctx.approx_grad = approx_grad
        ctx.block_inverse = block_inverse

        return P

    @staticmethod
    def backward(ctx, dJdP):
        M, r, c, P = ctx.saved_tensors
        B, H, W = M.shape

        # -v^T H^{-1} B with v = dJdP and B = I, -1/r or -1/c
        dJdM = -1.0 * ctx.gamma * P * dJdP
        dJdr = None if not ctx.needs_input_grad[1] else torch.zeros_like(r)
        dJdc = None if not ctx.needs_input_grad[2] else torch.zeros_like(c)

        if ctx.approx_grad:
            return dJdM, dJdr, dJdc, None, None, None, None, None

        # exact row and column sums (the forward pass may stop before converging)
        alpha = torch.sum(P, dim=2)
        beta = torch.sum(P, dim=1)

        # [vHAt1, vHAt2] = v^T H^{-1} A^T as two blocks
        vHAt1 = torch.sum(dJdM[:, 1:H, 0:W], dim=2)
        vHAt2 = torch.sum(dJdM, dim=1)

        # [v1, v2] = -v^T H^{-1} A^T (A H^{-1} A^T)^{-1}
        if ctx.block_inverse:
            PdivC = P[:, 1:H, 0:W] / beta.view(B, 1, W)
            RminusPPdivC = torch.diag_embed(alpha[:, 1:H]) - torch.einsum("bij,bkj->bik", P[:, 1:H, 0:W], PdivC)
            try:
                block_11 = torch.cholesky(RminusPPdivC)
            except:
                block_11 = torch.eye(H - 1, device=M.device, dtype=M.dtype).view(1, H - 1, H - 1).repeat(B, 1, 1)
                for b in range(B):
                    try:
                        block_11[b, :, :] = torch.cholesky(RminusPPdivC[b, :, :])
                    except:
                        # keep the initial values (the gradient will be close to zero)
                        warnings.warn("backward pass encountered a singular matrix")

            block_12 = torch.cholesky_solve(PdivC, block_11)
            block_22 = torch.diag_embed(1.0 / beta) + torch.einsum("bji,bjk->bik", block_12, PdivC)

            v1 = torch.cholesky_solve(vHAt1.view(B, H - 1, 1), block_11).view(B, H - 1) - torch.einsum("bi,bji->bj", vHAt2, block_12)
            v2 = torch.einsum("bi,bij->bj", vHAt2, block_22) - torch.einsum("bi,bij->bj", vHAt1, block_12)

        else:
            AinvHAt = torch.empty((B, H + W - 1, H + W - 1), device=M.device, dtype=M.dtype)
            AinvHAt[:, 0:H - 1, 0:H - 1] = torch.diag_embed(alpha[:, 1:H])
            AinvHAt[:, H - 1:H + W - 1, H - 1:H + W - 1] = torch.diag_embed(beta)
            AinvHAt[:, 0:H - 1, H - 1:H + W - 1] = P[:, 1:H, 0:W]
            AinvHAt[:, H - 1:H + W - 1, 0:H - 1] = P[:, 1:H, 0:W].transpose(1, 2)

            v = torch.einsum("bi,bij->bj", torch.cat((vHAt1, vHAt2), dim=1), torch.inverse(AinvHAt))
            v1 = v[:, 0:H - 1]
            v2 = v[:, H - 1:H + W - 1]

        # v^T H^{-1} A^T (A H^{-1} A^T)^{-1} A H^{-1} B - v^T H^{-1} B
        dJdM[:, 1:H, 0:W] -= v1.view(B, H - 1, 1) * P[:, 1:H, 0:W]
        dJdM -= v2.view(B, 1, W) * P

        # v^T H^{-1} A^T (A H^{-1} A^T)^{-1} (A H^{-1} B - C) - v^T H^{-1} B
        if dJdr is not None:
            dJdr = ctx.inv_r_sum.view(r.shape[0], 1) / ctx.gamma * \
                   (torch.sum(r[:, 1:H] * v1, dim=1, keepdim=True) - torch.cat((torch.zeros(B, 1), v1), dim=1))

        if dJdc is not None:
            dJdc = ctx.inv_c_sum.view(c.shape[0], 1) / ctx.gamma * (torch.sum(c * v2, dim=1, keepdim=True) - v2)

        # no gradients for gamma, eps, maxiters, approx_grad and block_inverse
        return dJdM, dJdr, dJdc, None, None, None, None, None


class OptimalTransportLayer(nn.Module):
    """Optimal transport as a layer: gamma is the inverse of the entropy weight, eps the stopping
    tolerance, approx_grad assumes exp(-gamma M) is nearly doubly stochastic in the backward pass."""

    def __init__(self, gamma=1.0, eps=1.0e-6, maxiters=1000, approx_grad=False, block_inverse=True):
        super(OptimalTransportLayer, self).__init__()
        self.gamma = gamma
        self.eps = eps
        self.maxiters = maxiters
        self.approx_grad = approx_grad
        self.block_inverse = block_inverse

    def forward(self, M, r=None, c=None):
        """M: (H, W) or (B, H, W); r: 1xH or BxH row sums; c: 1xW or BxW column sums (uniform if None)."""
        M_shape = M.shape
        ndim = len(M_shape)
        if ndim == 2:
            M = M.unsqueeze(dim=0)
        elif ndim != 3:
            raise ValueError(f"The shape of the input tensor {M_shape} does not match that of an matrix")

        # 1x1 matrices are their own solution
        nr, nc = M_shape[-2:]
        if nr == 1 and nc == 1:
            P = torch.ones_like(M)
        else:
            P = OptimalTransportFcn.apply(M, r, c, self.gamma, self.eps, self.maxiters, self.approx_grad, self.block_inverse)

        return P.view(*M_shape)


if __name__ == '__main__':

    from torch.autograd import gradcheck
    from torch.nn.functional import normalize

    torch.manual_seed(0)

    M = torch.randn((3, 5, 7), dtype=torch.double, requires_grad=True)
    f = OptimalTransportFcn().apply
    test = gradcheck(f, (M, None, None, 1.0, 1.0e-6, 1000, False, True), eps=1e-6, atol=1e-3, rtol=1e-6)
    print(test)

    test = gradcheck(f, (M, None, None, 10.0, 1.0e-6, 1000, False, False), eps=1e-6, atol=1e-3, rtol=1e-6)
    print(test)

    # with r and c inputs
    r = normalize(torch.rand((M.shape[0], M.shape[1]), dtype=torch.double, requires_grad=True), p=1.0)
    c = normalize(torch.rand((M.shape[0], M.shape[2]), dtype=torch.double, requires_grad=True), p=1.0)

    test = gradcheck(f, (M, r, c, 1.0, 1.0e-6, 1000, False, True), eps=1e-6, atol=1e-3, rtol=1e-6)
    print(test)

    test = gradcheck(f, (M, r, None, 1.0, 1.0e-6, 1000, False, False), eps=1e-6, atol=1e-3, rtol=1e-6)
    print(test)
