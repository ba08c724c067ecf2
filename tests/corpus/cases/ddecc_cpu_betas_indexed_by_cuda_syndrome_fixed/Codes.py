"""
Codes (reduced): the parity-check matrix of a (7,4) Hamming code stands in for Codes_DB's files.
"""
import numpy as np
import torch


def sign_to_bin(x):
    return 0.5 * (1 - x)


def bin_to_sign(x):
    return 1 - 2 * x


def EbN0_to_std(EbN0, rate):
    snr = EbN0 + 10. * np.log10(2 * rate)
    return np.sqrt(1. / (10. ** (snr / 10.)))


def BER(x_pred, x_gt):
    return torch.mean((x_pred != x_gt).float()).item()


def FER(x_pred, x_gt):
    return torch.mean(torch.any(x_pred != x_gt, dim=1).float()).item()


def Get_Generator_and_Parity(code, standard_form=True):
    ParityMatrix = np.array([[1, 1, 0, 1, 1, 0, 0],
                             [1, 0, 1, 1, 0, 1, 0],
                             [0, 1, 1, 1, 0, 0, 1]])
    GeneratorMatrix = np.array([[1, 0, 0, 0, 1, 1, 0],
                                [0, 1, 0, 0, 1, 0, 1],
                                [0, 0, 1, 0, 0, 1, 1],
                                [0, 0, 0, 1, 1, 1, 1]])
    assert np.all(np.mod((np.matmul(GeneratorMatrix, ParityMatrix.transpose())), 2) == 0)
    return GeneratorMatrix.astype(float), ParityMatrix.astype(float)
