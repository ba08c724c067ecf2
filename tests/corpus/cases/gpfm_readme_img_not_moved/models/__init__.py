import torch
import numpy as np


__all__ = ['list_models', 'get_model', 'get_custom_transformer']


__implemented_models = {
    'plip': 'https://huggingface.co/vinid/plip',
    'GPFM': 'models/ckpts/GPFM.pth',
}


def list_models():
    print('The following are implemented models:')
    for k, v in __implemented_models.items():
        print('{}: {}'.format(k, v))
    return __implemented_models


def get_model(model_name, device, gpu_num):
    """_summary_

    Args:
        model_name (str): the name of the requried model
        device (torch.device): device, e.g. 'cuda'
        gpu_num (int): the number of GPUs used in extracting features

    Returns:
        nn.Module: model
    """
    if model_name in ['GPFM']:
        from models.dinov2 import build_model
        model, _ = build_model(device, gpu_num, model_name, __implemented_models[model_name])
    else:
        raise NotImplementedError(f'{model_name} is not implemented')

    return model


def get_custom_transformer(model_name):
    """_summary_

    Args:
        model_name (str): the name of model

    Returns:
        torchvision.transformers: the transformers used to preprocess the image
    """
    if model_name == 'plip':
        # Do nothing, let CLIP process do the image processing
        from torchvision import transforms as tt
        custom_trans = tt.Lambda(lambda x: torch.from_numpy(np.array(x)))

    elif model_name in ['GPFM']:
        from models.dinov2 import build_transform
        custom_trans = build_transform()

    else:
        raise NotImplementedError('Transformers for {} is not implemented ...'.format(model_name))

    return custom_trans
