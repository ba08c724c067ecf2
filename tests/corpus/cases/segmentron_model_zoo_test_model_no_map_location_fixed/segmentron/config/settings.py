from .config import SegmentronConfig

cfg = SegmentronConfig()

cfg.TIME_STAMP = ''
cfg.ROOT_PATH = ''
cfg.PHASE = 'train'

cfg.DATASET.NAME = ''
cfg.TRAIN.PRETRAINED_MODEL_PATH = ''
cfg.TEST.TEST_MODEL_PATH = ''
cfg.MODEL.MODEL_NAME = ''
cfg.MODEL.BACKBONE = ''
cfg.MODEL.NUM_CLASSES = 19
