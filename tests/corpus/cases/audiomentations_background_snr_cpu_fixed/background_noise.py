import random
import typing
import warnings
from pathlib import Path
from typing import List, Union

import torch
from torch.distributions import Bernoulli


class EmptyPathException(Exception):
    pass


def calculate_rms(samples):
    """Calculates the root mean square (utils/dsp.py)."""
    return torch.sqrt(torch.mean(torch.square(samples), dim=-1, keepdim=False))


class Audio:
    """Audio IO (utils/io.py), with file reading replaced by a stand-in: like torchaudio.load, it
    returns (channel, time) CPU tensors."""

    def __init__(self, sample_rate: int, mono: bool = True):
        self.sample_rate = sample_rate
        self.mono = mono

    @staticmethod
    def rms_normalize(samples):
        """Power-normalize (channel, time) samples."""
        rms = samples.square().mean(dim=1).sqrt()
        return (samples.t() / (rms + 1e-8)).t()

    def get_num_samples(self, file) -> int:
        """Number of samples (in target sample rate): two seconds per stand-in file."""
        return 2 * self.sample_rate

    def __call__(self, file, sample_offset: int = 0, num_samples: int = None):
        if num_samples is None:
            num_samples = self.get_num_samples(file) - sample_offset
        return torch.rand(1, num_samples) * 2 - 1


class BaseWaveformTransform(torch.nn.Module):
    """core/transforms_interface.py: selection of the examples to transform, then
    randomize_parameters / apply_transform of the subclass ("per_channel" modes left out)."""
    supports_multichannel = True
    requires_sample_rate = True

    def __init__(
        self,
        mode: str = "per_example",
        p: float = 0.5,
        p_mode: typing.Optional[str] = None,
        sample_rate: typing.Optional[int] = None,
    ):
        super().__init__()
        assert 0.0 <= p <= 1.0
        self.mode = mode
        self._p = p
        self.p_mode = p_mode
        if self.p_mode is None:
            self.p_mode = self.mode
        self.sample_rate = sample_rate

        self.transform_parameters = {}
        self.are_parameters_frozen = False
        self.bernoulli_distribution = Bernoulli(self._p)

    def forward(self, samples, sample_rate: typing.Optional[int] = None):
        if not self.training:
            return samples

        if len(samples) == 0:
            warnings.warn(
                "An empty samples tensor was passed to {}".format(self.__class__.__name__)
            )
            return samples

        if len(samples.shape) != 3:
            raise RuntimeError(
                "torch-audiomentations expects input tensors to be three-dimensional, with"
                " dimension ordering like [batch_size, num_channels, num_samples]."
            )

        sample_rate = sample_rate or self.sample_rate
        if sample_rate is None and self.requires_sample_rate:
            raise RuntimeError("sample_rate is required")

        if not self.are_parameters_frozen:
            if self.p_mode == "per_example":
                p_sample_size = samples.shape[0]
            elif self.p_mode == "per_batch":
                p_sample_size = 1
            else:
                raise Exception("Invalid mode")
            self.transform_parameters = {
                "should_apply": self.bernoulli_distribution.sample(
                    sample_shape=(p_sample_size,)
                ).to(torch.bool)
            }

        if self.transform_parameters["should_apply"].any():
            cloned_samples = samples.clone()

            if self.p_mode == "per_example":
                selected_samples = cloned_samples[
                    self.transform_parameters["should_apply"]
                ]
                if not self.are_parameters_frozen:
                    self.randomize_parameters(selected_samples, sample_rate)

                cloned_samples[
                    self.transform_parameters["should_apply"]
                ] = self.apply_transform(selected_samples, sample_rate)
                return cloned_samples
            elif self.p_mode == "per_batch":
                if not self.are_parameters_frozen:
                    self.randomize_parameters(cloned_samples, sample_rate)
                return self.apply_transform(cloned_samples, sample_rate)
            else:
                raise Exception("Invalid p_mode {}".format(self.p_mode))

        return samples

    def randomize_parameters(self, selected_samples, sample_rate: typing.Optional[int] = None):
        pass

    def apply_transform(self, selected_samples, sample_rate: typing.Optional[int] = None):
        raise NotImplementedError()


class AddBackgroundNoise(BaseWaveformTransform):
    """
    Add background noise to the input audio.
    """

    supports_multichannel = True
    requires_sample_rate = True

    def __init__(
        self,
        background_paths: Union[List[Path], List[str]],
        min_snr_in_db: float = 3.0,
        max_snr_in_db: float = 30.0,
        mode: str = "per_example",
        p: float = 0.5,
        p_mode: str = None,
        sample_rate: int = None,
    ):
        super().__init__(mode, p, p_mode, sample_rate)

        self.background_paths = list(background_paths)

        if sample_rate is not None:
            self.audio = Audio(sample_rate=sample_rate, mono=True)

        if len(self.background_paths) == 0:
            raise EmptyPathException("There are no supported audio files found.")

        self.min_snr_in_db = min_snr_in_db
        self.max_snr_in_db = max_snr_in_db
        if self.min_snr_in_db > self.max_snr_in_db:
            raise ValueError("min_snr_in_db must not be greater than max_snr_in_db")

    def random_background(self, audio: Audio, target_num_samples: int) -> torch.Tensor:
        pieces = []
        missing_num_samples = target_num_samples
        while missing_num_samples > 0:
            background_path = random.choice(self.background_paths)
            background_num_samples = audio.get_num_samples(background_path)

            if background_num_samples > missing_num_samples:
                sample_offset = random.randint(
                    0, background_num_samples - missing_num_samples
                )
                num_samples = missing_num_samples
                background_samples = audio(
                    background_path, sample_offset=sample_offset, num_samples=num_samples
                )
                missing_num_samples = 0
            else:
                background_samples = audio(background_path)
                missing_num_samples -= background_num_samples

            pieces.append(background_samples)

        # pieces share one RMS (1), and so does the concatenated background
        return audio.rms_normalize(
            torch.cat([audio.rms_normalize(piece) for piece in pieces], dim=1)
        )

    def randomize_parameters(self, selected_samples: torch.Tensor, sample_rate: int = None):
        """
        :params selected_samples: (batch_size, num_channels, num_samples)
        """
        batch_size, _, num_samples = selected_samples.shape

        # (batch_size, num_samples) RMS-normalized background noise
        audio = self.audio if hasattr(self, "audio") else Audio(sample_rate, mono=True)
        self.transform_parameters["background"] = torch.stack(
            [self.random_background(audio, num_samples) for _ in range(batch_size)]
        )

        # (batch_size, ) SNRs
        snr_distribution = torch.distributions.Uniform(
            low=torch.tensor(
                self.min_snr_in_db, dtype=torch.float32, device=selected_samples.device
            ),
            high=torch.tensor(
                self.max_snr_in_db, dtype=torch.float32, device=selected_samples.device
            ),
            validate_args=True,
        )
        self.transform_parameters["snr_in_db"] = snr_distribution.sample(
            sample_shape=(batch_size,)
        )

    def apply_transform(self, selected_samples: torch.Tensor, sample_rate: int = None):
        batch_size, num_channels, num_samples = selected_samples.shape

        # (batch_size, num_samples)
        background = self.transform_parameters["background"].to(selected_samples.device)

        # (batch_size, num_channels)
        background_rms = calculate_rms(selected_samples) / (
            10 ** (self.transform_parameters["snr_in_db"].unsqueeze(dim=-1) / 20)
        )

        return selected_samples + background_rms.unsqueeze(-1) * background.view(
            batch_size, 1, num_samples
        ).expand(-1, num_channels, -1)


if __name__ == "__main__":
    # the use: audio sent to the GPU and passed to the augmentor (which was also moved)
    device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
    sample_rate = 16000
    audio_samples = (torch.rand(4, 1, sample_rate) * 2 - 1).to(device)
    augment = AddBackgroundNoise(["bg/bg.wav", "bg/stereo_noise.wav"], 20, p=1.0,
                                 sample_rate=sample_rate).to(device)
    mixed = augment(audio_samples, sample_rate)
    print(mixed.shape, mixed.device)
