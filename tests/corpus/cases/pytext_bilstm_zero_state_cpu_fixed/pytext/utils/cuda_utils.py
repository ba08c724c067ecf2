# set by workflow._set_cuda() before the task is built
CUDA_ENABLED = False


def GetTensor(tensor):
    if CUDA_ENABLED:
        return tensor.cuda()
    return tensor
