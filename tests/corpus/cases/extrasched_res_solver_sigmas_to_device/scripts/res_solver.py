# Refined Exponential Solver (RES), second-order single-step sampler
from itertools import pairwise

import torch
from torch import FloatTensor, no_grad


def default_noise_sampler(x):
    return lambda sigma, sigma_next: torch.randn_like(x)


def _phi_1(neg_h: FloatTensor):
    return torch.nan_to_num(torch.expm1(neg_h) / neg_h, nan=1.0)


def _phi_2(neg_h: FloatTensor):
    return torch.nan_to_num((torch.expm1(neg_h) - neg_h) / neg_h ** 2, nan=0.5)


def _refined_exp_sosu_step(model, x, sigma, sigma_next, c2=0.5, extra_args={}):
    lam_next, lam = (s.log().neg() for s in (sigma_next, sigma))
    h = lam_next - lam
    a2_1 = c2 * _phi_1(-c2 * h)
    phi2_c2 = _phi_2(-h) / c2
    b1, b2 = _phi_1(-h) - phi2_c2, phi2_c2

    denoised = model(x, sigma, **extra_args)
    c2_h = c2 * h
    x_2 = (-c2_h).exp() * x + a2_1 * h * denoised
    sigma_2 = (lam + c2_h).neg().exp()
    denoised2 = model(x_2, sigma_2, **extra_args)

    x_next = (-h).exp() * x + h * (b1 * denoised + b2 * denoised2)
    return x_next, denoised


@no_grad()
def sample_refined_exp_s(model, x, sigmas, denoise_to_zero=True, extra_args=None, callback=None,
                         disable=None, ita=torch.zeros((1,)), c2=.5, noise_sampler=None):
    extra_args = {} if extra_args is None else extra_args
    noise_sampler = default_noise_sampler(x)

    device = x.device
    ita = ita.to(device)
    sigmas = sigmas.to(device)

    for i, (sigma, sigma_next) in enumerate(pairwise(sigmas[:-1].split(1))):
        eps = noise_sampler(sigma, sigma_next).float().to(device)
        sigma_hat = sigma * (1 + ita)
        x_hat = x + (sigma_hat ** 2 - sigma ** 2).sqrt() * eps
        x_next, denoised = _refined_exp_sosu_step(model, x_hat, sigma_hat, sigma_next, c2=c2, extra_args=extra_args)
        if callback is not None:
            callback({"x": x, "i": i, "sigma": sigma, "sigma_hat": sigma_hat, "denoised": denoised})
        x = x_next
    if denoise_to_zero:
        eps = noise_sampler(sigma, sigma_next).float().to(device)
        sigma_hat = sigma * (1 + ita)
        x_hat = x + (sigma_hat ** 2 - sigma ** 2).sqrt() * eps
        x = model(x_hat, sigma.to(x_hat.device), **extra_args)
    return x


def sample_res_solver(model, x, sigmas, extra_args=None, callback=None, disable=None, noise_sampler=None,
                      denoise_to_zero=True, c2=0.5, ita=torch.Tensor((0.25,))):
    return sample_refined_exp_s(model, x, sigmas, extra_args=extra_args, callback=callback, disable=disable,
                                noise_sampler=noise_sampler, denoise_to_zero=denoise_to_zero, c2=c2, ita=ita)
