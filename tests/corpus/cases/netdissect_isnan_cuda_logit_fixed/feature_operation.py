import os

import numpy as np
import torch
from torch.autograd import Variable as V

import settings
from loader.data_loader import SegmentationData, SegmentationPrefetcher

features_blobs = []


def hook_feature(module, input, output):
    features_blobs.append(output.data.cpu().numpy())


class FeatureOperator:

    def __init__(self):
        if not os.path.exists(settings.OUTPUT_FOLDER):
            os.makedirs(os.path.join(settings.OUTPUT_FOLDER, 'image'))
        self.data = SegmentationData(settings.DATA_DIRECTORY, categories=settings.CATAGORIES)
        self.loader = SegmentationPrefetcher(self.data, categories=['image'], once=True,
                                             batch_size=settings.BATCH_SIZE)
        self.mean = [109.5388, 118.6897, 124.6901]

    def feature_extraction(self, model=None):
        loader = self.loader
        maxfeatures = [None] * len(settings.FEATURE_NAMES)
        wholefeatures = [None] * len(settings.FEATURE_NAMES)
        num_batches = (len(loader.indexes) + loader.batch_size - 1) / loader.batch_size
        for batch_idx, batch in enumerate(loader.tensor_batches(bgr_mean=self.mean)):
            del features_blobs[:]
            input = batch[0]
            print('extracting feature from batch %d / %d' % (batch_idx + 1, num_batches))
            input = torch.from_numpy(input[:, ::-1, :, :].copy())
            input.div_(255.0 * 0.224)
            if settings.GPU:
                input = input.cuda()
            input_var = V(input, volatile=True)
            logit = model.forward(input_var)
            while np.isnan(logit.data.cpu().max()):
                print("nan")  # the activations came back with a NaN: run the batch again
                del features_blobs[:]
                logit = model.forward(input_var)
            if maxfeatures[0] is None:
                for i, feat_batch in enumerate(features_blobs):
                    maxfeatures[i] = np.zeros((len(loader.indexes), feat_batch.shape[1]))
                    if len(feat_batch.shape) == 4:
                        wholefeatures[i] = np.zeros((len(loader.indexes),) + feat_batch.shape[1:])
            start_idx = batch_idx * settings.BATCH_SIZE
            end_idx = min((batch_idx + 1) * settings.BATCH_SIZE, len(loader.indexes))
            for i, feat_batch in enumerate(features_blobs):
                if len(feat_batch.shape) == 4:
                    wholefeatures[i][start_idx:end_idx] = feat_batch
                    maxfeatures[i][start_idx:end_idx] = np.max(np.max(feat_batch, 3), 2)
                elif len(feat_batch.shape) == 2:
                    maxfeatures[i][start_idx:end_idx] = feat_batch
        if wholefeatures[0] is None:
            wholefeatures = maxfeatures
        return wholefeatures, maxfeatures
