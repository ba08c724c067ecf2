import numpy
import torch
import torch_ac
import gym


def get_obss_preprocessor(obs_space):
    # MiniGrid observation space: only the image is used here
    if isinstance(obs_space, gym.spaces.Dict):
        obs_space = {"image": obs_space.spaces["image"].shape}

        def preprocess_obss(obss, device=None):
            return torch_ac.DictList({
                "image": preprocess_images([obs["image"] for obs in obss], device=device)
            })
    else:
        raise ValueError("Unknown observation space: " + str(obs_space))

    return obs_space, preprocess_obss


def preprocess_images(images, device=None):
    # Bug of Pytorch: very slow if not first converted to numpy array
    images = numpy.array(images)
    return torch.tensor(images, device=device, dtype=torch.float)
