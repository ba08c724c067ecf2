import torch


class Frame:
    """Rigid transforms: a batch of rotations (..., 3, 3) and translations (..., 3)."""

    def __init__(self, rotations=torch.empty(0, 3, 3), translations=torch.empty(0, 3)):
        self.rotations = rotations
        self.translations = translations
        r = rotations.shape
        t = translations.shape
        if len(r) < 2 or len(t) < 1 or r[:-2] != t[:-1] or (r[-2], r[-1], t[-1]) != (3, 3, 3):
            raise ValueError(f"Expected rotations (..., 3, 3) and translations (..., 3), got {r} and {t}")

    @staticmethod
    def inverse(frame):
        inverse_rotations = frame.rotations.transpose(-2, -1)
        inverse_translations = -inverse_rotations @ frame.translations.unsqueeze(-1)
        return Frame(inverse_rotations, inverse_translations.squeeze(-1))

    @staticmethod
    def compose(a, b):
        rotations = a.rotations @ b.rotations
        translations = Frame.apply(a, b.translations)
        return Frame(rotations, translations)

    @staticmethod
    def apply(frames, vectors):
        result = frames.rotations @ vectors.unsqueeze(-1) + frames.translations.unsqueeze(-1)
        return result.squeeze(-1)
