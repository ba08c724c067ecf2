######### global settings  #########
GPU = True                                  # running on GPU is highly suggested
MODEL = 'resnet18'
DATASET = 'places365'
CATAGORIES = ["object", "part", "scene", "texture", "color"]
OUTPUT_FOLDER = "result/pytorch_" + MODEL + "_" + DATASET

DATA_DIRECTORY = 'dataset/broden1_224'
IMG_SIZE = 224
NUM_CLASSES = 365
FEATURE_NAMES = ['layer4']
BATCH_SIZE = 128
